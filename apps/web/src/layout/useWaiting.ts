import { useQuery } from '@tanstack/react-query';
import { flowApi } from '@atrium/contract';
import { call } from '../api/call';
import { useSession } from '../stores/session';

/** How often the bell asks for the waiting tasks while the tab is visible (docs/workflow.md "Screens: my work and leave"). */
export const WAITING_POLL_MS = 10_000;

/**
 * The caller's waiting tasks (assigned + claimable) for the bell: asked on mount, every 10 s while the tab is visible
 * (TanStack Query pauses the interval on a hidden tab) and when the window regains focus. A refusal is silent (the
 * bell just shows no count) and stops the polling until the next focus, so a broken call is not repeated every 10 s.
 * Nothing is asked while the user must change the password (the server refuses every other call until then): the
 * count is asked as soon as the password is changed, and polled from then on.
 */
export function useWaiting() {
  const mustChangePassword = useSession((s) => s.mustChangePassword);
  const q = useQuery({
    queryKey: ['flow-waiting'],
    enabled: !mustChangePassword,
    queryFn: () => call(flowApi.waitingCount, {}, { meta: { whitelist: [403, 404, 500, 502, 503] } }),
    refetchInterval: (query) => (query.state.status === 'error' ? false : WAITING_POLL_MS),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
  const todo = q.data?.todo ?? 0;
  const claim = q.data?.claim ?? 0;
  return { todo, claim, total: todo + claim };
}
