import { website } from '@atrium/contract';

/** A stored entry (docs/product.md "Records" "Local storage entry"): what it holds, its type, and when it was written. */
export type Entry<T = unknown> = { dataType: string; content: T; type: boolean; datetime: number };

const key = (name: string) => `${website.keyPrefix}${name}`;
const area = (type?: boolean) => (type ? window.sessionStorage : window.localStorage);

/** Session storage when `type` is truthy, otherwise local storage (docs/product.md "States"). */
export function setStore<T>({ name, content, type }: { name: string; content: T; type?: boolean }): void {
  const entry: Entry<T> = { dataType: typeof content, content, type: !!type, datetime: Date.now() };
  area(type).setItem(key(name), JSON.stringify(entry));
}

export function getEntry<T>({ name }: { name: string }): Entry<T> | null {
  const raw = window.sessionStorage.getItem(key(name)) ?? window.localStorage.getItem(key(name));
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Entry<T>;
  } catch {
    return null;
  }
}

export function getStore<T>({ name }: { name: string }): T | undefined {
  return getEntry<T>({ name })?.content;
}

export function removeStore({ name, type }: { name: string; type?: boolean }): void {
  if (type === undefined) {
    window.sessionStorage.removeItem(key(name));
    window.localStorage.removeItem(key(name));
  } else area(type).removeItem(key(name));
}
