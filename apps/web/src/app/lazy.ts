import { lazy, type ComponentType } from 'react';
import { CHUNK_TIMEOUT_MS } from '@atrium/contract';

/** React.lazy whose chunk load fails after 120 s instead of hanging (spec §8). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() =>
    Promise.race([
      load(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_TIMEOUT_MS)),
    ]),
  );
}
