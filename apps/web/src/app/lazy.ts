import { lazy, type ComponentType } from 'react';
import { CHUNK_TIMEOUT_MS } from '@atrium/contract';

/**
 * React.lazy whose chunk load fails after 120 s instead of hanging (docs/product.md "Messages and errors"). Every lazy page (fixed routes and
 * menu screens, app/registry.ts) loads through it. The timer ends with the load, so none is left running.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(
    () =>
      new Promise<{ default: T }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_TIMEOUT_MS);
        load()
          .then(resolve, reject)
          .finally(() => clearTimeout(timer));
      }),
  );
}
