/**
 * A kept tab shown again re-subscribes its queries (React's <Activity> detaches effects while hidden), which
 * TanStack Query treats as a mount and would refetch: the tab would flash its loading state and lose the point of
 * being kept. KeepAlive raises this flag from the layout effects to the passive effects of the commit that
 * reveals a tab (children's passive effects run before KeepAlive's own), and the shell's query client consults it.
 */
let revealing = false;

export function setRevealing(value: boolean) {
  revealing = value;
}

/** `refetchOnMount` of the shell's queries: normal on a real mount; on a reveal only when invalidated meanwhile. */
export function refetchOnMount(query: { state: { isInvalidated: boolean } }): boolean {
  return !revealing || query.state.isInvalidated;
}
