/**
 * The bookkeeping of kept tabs, as a pure function over an insertion-ordered Map (oldest first): `key` becomes the
 * most recent entry, entries whose tag was closed are freed, and the least recently used go beyond `cap`.
 * An entry already kept keeps its id prefix (`scope`); `make` builds a new entry's scope.
 */
export function keepEntry<T extends { scope: string }>(
  map: Map<string, T>,
  key: string,
  entry: Omit<T, 'scope'>,
  open: ReadonlySet<string>,
  cap: number,
  make: () => string,
): Map<string, T> {
  const scope = map.get(key)?.scope ?? make();
  map.delete(key);
  map.set(key, { ...entry, scope } as T);
  for (const k of [...map.keys()]) if (k !== key && !open.has(k)) map.delete(k);
  while (map.size > cap) map.delete(map.keys().next().value!);
  return map;
}
