import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { deskApi, type AnswerOf } from '@atrium/contract';
import { call } from '../api/call';
import { useSession } from '../stores/session';

/** How often the bell asks while the tab is visible (docs/notices.md "The bell"). */
export const BELL_POLL_MS = 10_000;

export type BellData = AnswerOf<typeof deskApi.bell>;
const KEY = ['desk-bell'];
const SILENT = { meta: { whitelist: [403, 404, 500, 502, 503] } };

/**
 * The caller's bell (docs/notices.md "The bell"): notices, waiting tasks, device and delivery alerts as allowed, and
 * the unread count. Asked on mount, every 10 s while the tab is visible (TanStack Query pauses the interval on a
 * hidden tab) and when the window regains focus. A refusal is silent (the bell shows nothing) and stops the polling
 * until the next focus, so a broken call is not repeated every 10 s. Nothing is asked while the user must change the
 * password (the server refuses every other call until then): the bell is asked as soon as the password is changed,
 * and polled from then on (docs/workflow.md "Screens: my work and leave").
 */
export function useBell() {
  const mustChangePassword = useSession((s) => s.mustChangePassword);
  const client = useQueryClient();
  const q = useQuery({
    queryKey: KEY,
    enabled: !mustChangePassword,
    queryFn: () => call(deskApi.bell, {}, SILENT),
    refetchInterval: (query) => (query.state.status === 'error' ? false : BELL_POLL_MS),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
  const todo = q.data?.waiting.todo ?? 0;
  const claim = q.data?.waiting.claim ?? 0;
  /** Opening the bell: everything in it is seen (the items keep their "new" mark until the next ask). */
  const markSeen = useCallback(async () => {
    if (!q.data?.unread) return;
    client.setQueryData<BellData>(KEY, (d) => (d ? { ...d, unread: 0 } : d));
    await call(deskApi.bellSeen, {}, SILENT).catch(() => undefined);
  }, [client, q.data?.unread]);
  return { data: q.data, todo, claim, waiting: todo + claim, unread: q.data?.unread ?? 0, markSeen };
}
