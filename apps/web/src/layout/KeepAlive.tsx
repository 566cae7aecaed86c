import {
  Activity,
  Suspense,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  type ContextType,
  type ReactNode,
} from 'react';
import { Spin } from 'antd';
import { UNSAFE_DataRouterStateContext, UNSAFE_LocationContext, useOutlet } from 'react-router';
import { useTags } from '../stores/tags';
import { keepEntry } from './keepAliveCache';
import { setRevealing } from './reveal';
import { TabScopeContext } from './tabScope';
import { useCache } from './useCache';

export const CACHE_CAP = 10;

type LocationValue = ContextType<typeof UNSAFE_LocationContext>;
type RouterStateValue = ContextType<typeof UNSAFE_DataRouterStateContext>;
type Entry = { element: ReactNode; location: LocationValue; routerState: RouterStateValue; scope: string };

let lastScope = 0;
const nextScope = () => `tab${++lastScope}-`;

/**
 * Keeps each open tab mounted (hidden with React's <Activity>) so switching tabs keeps its state.
 * Keyed by the full path with query; capped (least recently used goes first); a closed tag is freed;
 * "refresh" remounts only that tab.
 *
 * Each tab sees the location and router state it was last shown with: a hidden tab must not re-render as the
 * current page (a page that reads the path, like DynamicPage, would otherwise turn into it and lose its state).
 * Each tab also gets its own id prefix (useTabScope), since hidden tabs stay in the document.
 */
export default function KeepAlive() {
  const outlet = useOutlet();
  const location = useContext(UNSAFE_LocationContext);
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  const key = location.location.pathname + location.location.search;
  const tags = useTags((s) => s.tags);
  const nonce = useCache((s) => s.nonce);
  const cache = useRef(new Map<string, Entry>());
  const map = keepEntry(
    cache.current,
    key,
    { element: outlet, location, routerState },
    new Set(tags.map((t) => t.value)),
    CACHE_CAP,
    nextScope,
  );

  // Revealing a tab that was kept (not a first mount, not a refresh): its queries keep their data.
  const shown = useRef<{ key: string; keys: Set<string> }>({ key: '', keys: new Set() });
  useLayoutEffect(() => {
    const before = shown.current;
    if (before.key !== key && before.keys.has(key)) setRevealing(true);
    shown.current = { key, keys: new Set(map.keys()) };
  });
  useEffect(() => setRevealing(false));

  return (
    <>
      {[...map.entries()].map(([k, e]) => (
        <Activity key={`${k}#${nonce[k] ?? 0}`} mode={k === key ? 'visible' : 'hidden'}>
          <UNSAFE_LocationContext.Provider value={e.location}>
            <UNSAFE_DataRouterStateContext.Provider value={e.routerState}>
              <TabScopeContext.Provider value={e.scope}>
                <div data-tab={k} data-tab-scope={e.scope} style={{ height: '100%' }}>
                  <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>{e.element}</Suspense>
                </div>
              </TabScopeContext.Provider>
            </UNSAFE_DataRouterStateContext.Provider>
          </UNSAFE_LocationContext.Provider>
        </Activity>
      ))}
    </>
  );
}
