import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { flowApi, type AnswerOf, type BodyOf } from '@atrium/contract';
import { call } from '../../../api/call';
import { dictionary } from '../../../api/system';

/** The calls of 我的事务 and the leave screens (docs/workflow.md "Routes"), typed by the contract's schemas. */

export type Page<T> = { records: T[]; total: number; size: number; current: number; pages: number };
export type Definition = AnswerOf<typeof flowApi.startList>['records'][number];
export type Task = AnswerOf<typeof flowApi.todoList>['records'][number];
export type Instance = AnswerOf<typeof flowApi.sendList>['records'][number];
export type HistoryStep = AnswerOf<typeof flowApi.historyFlowList>[number];
export type LeaveDetail = AnswerOf<typeof flowApi.leaveDetail>;
export type LeaveBody = BodyOf<typeof flowApi.leaveStart>;
export type CompleteBody = BodyOf<typeof flowApi.completeTask>;
export type UserOption = AnswerOf<typeof flowApi.userOptions>[number];
export type Waiting = AnswerOf<typeof flowApi.waitingCount>;

/** Paging, a filter and a sort as the server's list rules read them (`ascs` / `descs`). */
export type ListParams = Record<string, string | number | undefined>;

export const workApi = {
  startList: (query: ListParams) => call(flowApi.startList, { query }),
  claimList: (query: ListParams) => call(flowApi.claimList, { query }),
  todoList: (query: ListParams) => call(flowApi.todoList, { query }),
  sendList: (query: ListParams) => call(flowApi.sendList, { query }),
  doneList: (query: ListParams) => call(flowApi.doneList, { query }),
  /** A 409 (someone else claimed it) comes back to the screen without the client's toast: it says it itself. */
  claimTask: (taskId: string) => call(flowApi.claimTask, { query: { taskId } }, { meta: { whitelist: [409] } }),
  /** A 409 (already completed, instance ended) comes back to the screen, which says it itself. */
  completeTask: (body: CompleteBody) => call(flowApi.completeTask, { body }, { meta: { whitelist: [409] } }),
  userOptions: (name: string) => call(flowApi.userOptions, { query: name ? { name } : {} }),
  leaveStart: (body: LeaveBody) => call(flowApi.leaveStart, { body }),
  /** A 404 (not a participant, another tenant's) is shown by the screen. */
  leaveDetail: (businessId: string) =>
    call(flowApi.leaveDetail, { query: { businessId } }, { meta: { whitelist: [403, 404] } }),
  diagram: (processInstanceId: string) => call(flowApi.diagram, { query: { processInstanceId } }),
  waitingCount: () => call(flowApi.waitingCount, {}, { meta: { whitelist: [403, 404, 500, 502, 503] } }),
};

/** The leave types: each tenant's business dictionary `leave_type` (docs/workflow.md "The leave process"). */
export async function leaveTypes(): Promise<{ value: number; label: string }[]> {
  const entries = await dictionary('leave_type', true);
  return entries
    .filter((e) => /^\d{1,4}$/.test(e.dictKey))
    .map((e) => ({ value: Number(e.dictKey), label: e.dictValue }));
}

/** The status of a refused call, if it was answered. */
export const statusOf = (err: unknown): number | undefined =>
  (err as { response?: { status?: number } } | null)?.response?.status;
/** The server's message of a refused call. */
export const messageOf = (err: unknown): string | undefined => {
  const msg = (err as { response?: { data?: { msg?: unknown } } } | null)?.response?.data?.msg;
  return typeof msg === 'string' && msg ? msg : undefined;
};

/** A process category's name: the business dictionary `flow` (docs/workflow.md "Flow routes"); the key when unknown. */
export function useCategoryName() {
  const { i18n } = useTranslation();
  const flows = useQuery({
    queryKey: ['dictBiz', 'flow', i18n.language],
    queryFn: () => dictionary('flow', true),
    staleTime: 300_000,
  });
  return (key: string | null) => (key ? (flows.data?.find((e) => e.dictKey === key)?.dictValue ?? key) : '');
}
