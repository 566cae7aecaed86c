import { useMemo, type ReactNode } from 'react';
import type { FieldDef, ResourceDef } from '@atrium/contract';
import CrudPage from './CrudPage';
import { resourceSchema, type RecordOf } from './fromDefinition';
import type { CrudSchema, Row } from './types';

/**
 * What a module may add to the screen its definition gives. Pass a stable object (defined outside the component,
 * or memoised): the schema is derived again when `schema` changes.
 */
export type ResourceHooks<R extends Row> = {
  /** Adjusts the derived schema: extra toolbar or row actions, cell renders, add defaults, onSaved. */
  schema?: (derived: CrudSchema<R>) => CrudSchema<R>;
  /** Fixed list filters. */
  params?: Record<string, unknown>;
  /** Shown in the card's header. */
  extra?: ReactNode;
};

/** The engine's schema of a definition, adjusted by a module; for a screen composing the views itself. */
export function useResourceSchema<F extends Record<string, FieldDef>>(
  def: ResourceDef<F>,
  adjust?: (derived: CrudSchema<RecordOf<F>>) => CrudSchema<RecordOf<F>>,
): CrudSchema<RecordOf<F>> {
  return useMemo(() => {
    const derived = resourceSchema(def);
    return adjust ? adjust(derived) : derived;
  }, [def, adjust]);
}

/** A whole CRUD screen from a resource definition alone (docs/web.md "Resource screens"). */
export default function ResourcePage<F extends Record<string, FieldDef>>({
  def,
  hooks,
}: {
  def: ResourceDef<F>;
  hooks?: ResourceHooks<RecordOf<F>>;
}) {
  const schema = useResourceSchema(def, hooks?.schema);
  return <CrudPage schema={schema} params={hooks?.params} extra={hooks?.extra} />;
}
