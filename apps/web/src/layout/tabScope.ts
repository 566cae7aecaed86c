import { createContext, useContext } from 'react';

/** The id prefix of the kept tab a component renders in; '' outside the tabs (login, lock, dialogs of the shell). */
export const TabScopeContext = createContext('');

/**
 * A stable prefix unique to the current tab, e.g. 'tab3-'. Kept tabs stay in the document while hidden, so two
 * tabs with the same antd Form `name` would generate the same element ids and their labels would point at the
 * hidden tab's inputs. Prepend it to form names: `<Form name={`${useTabScope()}crud-search`}>`.
 */
export function useTabScope(): string {
  return useContext(TabScopeContext);
}
