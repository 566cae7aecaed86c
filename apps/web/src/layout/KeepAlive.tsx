import { Activity, Suspense, useRef, type ReactNode } from 'react';
import { Spin } from 'antd';
import { useLocation, useOutlet } from 'react-router';
import { useTags } from '../stores/tags';
import { useCache } from './useCache';

export const CACHE_CAP = 10;

/**
 * Keeps each open tab mounted (hidden with React's <Activity>) so switching tabs keeps its state.
 * Keyed by the full path with query; capped (least recently used goes first); a closed tag is freed;
 * "refresh" remounts only that tab.
 */
export default function KeepAlive() {
  const outlet = useOutlet();
  const { pathname, search } = useLocation();
  const key = pathname + search;
  const tags = useTags((s) => s.tags);
  const nonce = useCache((s) => s.nonce);
  const cache = useRef(new Map<string, ReactNode>());
  const map = cache.current;

  map.delete(key);
  map.set(key, outlet);
  const open = new Set(tags.map((t) => t.value));
  for (const k of [...map.keys()]) if (k !== key && !open.has(k)) map.delete(k);
  while (map.size > CACHE_CAP) map.delete(map.keys().next().value!);

  return (
    <>
      {[...map.entries()].map(([k, el]) => (
        <Activity key={`${k}#${nonce[k] ?? 0}`} mode={k === key ? 'visible' : 'hidden'}>
          <div data-tab={k} style={{ height: '100%' }}>
            <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>{el}</Suspense>
          </div>
        </Activity>
      ))}
    </>
  );
}
