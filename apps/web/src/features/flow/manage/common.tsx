import { useMemo } from 'react';
import { Select, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
import { flowApi, website, type AnswerOf, type BodyOf } from '@atrium/contract';
import { tenant } from '@atrium/contract/resources/system/tenant';
import { call } from '../../../api/call';
import { crudApi } from '../../../api/crud';
import { dictionary } from '../../../api/system';
import { DATE_FORMAT } from '../../../components/crud/formats';
import type { CrudField, Row } from '../../../components/crud/types';
import i18n from '../../../i18n';
import { useSession } from '../../../stores/session';
import { flowManageTexts } from './messages';

/** Shared parts of the 流程管理 screens (docs/workflow.md "Screens"): texts, record types, options, cells. */

i18n.addResourceBundle('zh', 'translation', { flowManage: flowManageTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { flowManage: flowManageTexts.en }, true, false);

export type ModelRecord = AnswerOf<typeof flowApi.modelList>['records'][number];
export type DefinitionRecord = AnswerOf<typeof flowApi.managerList>['records'][number];
export type InstanceRecord = AnswerOf<typeof flowApi.followList>['records'][number];
export type HistoryRecord = AnswerOf<typeof flowApi.historyFlowList>[number];

/** The base of a route's area (e.g. the model calls), for the CRUD engine's query keys and its remove call. */
export const baseOf = (path: string) => path.slice(0, path.lastIndexOf('/'));

/** The server's message of a refused call and its status (envelope code or HTTP status). */
export function refusal(err: unknown): { status?: number; message: string } {
  const res = (err as { response?: { status?: number; data?: { code?: unknown; msg?: unknown } } })?.response;
  const code = res?.data?.code;
  const msg = res?.data?.msg;
  return { status: typeof code === 'number' ? code : res?.status, message: typeof msg === 'string' ? msg : '' };
}

/** A time as the console shows it (empty for none). */
export const timeText = (v: string | null | undefined) => (v && dayjs(v).isValid() ? dayjs(v).format(DATE_FORMAT) : '');

/** A duration in milliseconds, roughly: the two largest units. */
export function durationText(ms: number | null | undefined, t: TFunction): string {
  if (ms == null || ms < 0) return '';
  const s = Math.floor(ms / 1000);
  const parts: [number, string][] = [
    [Math.floor(s / 86400), 'days'],
    [Math.floor((s % 86400) / 3600), 'hours'],
    [Math.floor((s % 3600) / 60), 'minutes'],
    [s % 60, 'seconds'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first < 0) return t('flowManage.seconds', { n: 0 });
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, k]) => t(`flowManage.${k}`, { n }))
    .join(' ');
}

/**
 * A process category is a key of the tenant's business dictionary `flow` (docs/workflow.md "Flow routes"); the
 * options are its entries in the reader's language.
 */
export function useCategories() {
  const { i18n: i } = useTranslation();
  const q = useQuery({
    queryKey: ['dictBiz', 'flow', i.language],
    queryFn: () => dictionary('flow', true),
    staleTime: 300_000,
    retry: false,
  });
  return useMemo(() => {
    const options = (q.data ?? []).map((e) => ({ value: e.dictKey, label: e.dictValue }));
    const labels = new Map(options.map((o) => [o.value, o.label]));
    return { options, label: (v: string | null | undefined) => (v ? (labels.get(v) ?? v) : '') };
  }, [q.data]);
}

/** The category column and search of a screen the CRUD engine draws (模型管理, 流程部署). */
export const categoryField = <R extends Row>(categories: ReturnType<typeof useCategories>): CrudField<R> => ({
  name: 'category',
  label: 'flowManage.category',
  search: true,
  kind: 'dict',
  options: categories.options,
  render: (v) => categories.label(v as string | null),
});

/** The category select of a form. */
export function CategorySelect(props: { value?: string; onChange?: (v: string) => void; id?: string }) {
  const { t } = useTranslation();
  const { options } = useCategories();
  return <Select {...props} options={options} allowClear placeholder={t('flowManage.chooseCategory')} />;
}

/** The platform administrator (tenant 000000) may deploy into other tenants (`tenantIds`). */
export const usePlatform = () =>
  useSession((s) => s.tenantId === website.defaultTenantId && s.roles.includes('administrator'));

/** The tenant picker of a platform deployment: every tenant by id and name. */
export function TenantSelect(props: { value?: string[]; onChange?: (v: string[]) => void; id?: string }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['flowManage', 'tenants'],
    queryFn: () => crudApi(tenant.base).list<{ tenantId: string; tenantName: string }>({ current: 1, size: 200 }),
    staleTime: 60_000,
    retry: false,
  });
  const options = (q.data?.records ?? []).map((r) => ({ value: r.tenantId, label: `${r.tenantId} ${r.tenantName}` }));
  return (
    <Select
      {...props}
      mode="multiple"
      loading={q.isLoading}
      options={options}
      optionFilterProp="label"
      allowClear
      placeholder={t('flowManage.chooseTenants')}
    />
  );
}

/** 1 active, 2 suspended. */
export function StateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  return state === 2 ? (
    <Tag color="warning">{t('flowManage.suspended')}</Tag>
  ) : (
    <Tag color="success">{t('flowManage.active')}</Tag>
  );
}

const STATUS_COLOURS: Record<string, string> = { running: 'processing', ended: 'success', deleted: 'default' };
export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLOURS[status] ?? 'default'}>{t(`flowManage.${status}`)}</Tag>;
}

/** Typed calls of the three screens. */
export const flowCalls = {
  modelDetail: (id: string) => call(flowApi.modelDetail, { query: { id } }),
  // A bad model (400 naming its element) and a stale version (409) are shown in the editor, not as a toast.
  modelSubmit: (body: BodyOf<typeof flowApi.modelSubmit>) =>
    call(flowApi.modelSubmit, { body }, { meta: { whitelist: [400, 409] } }),
  modelRemove: (ids: string[]) => call(flowApi.modelRemove, { query: { ids: ids.join(',') } }),
  modelDeploy: (body: { modelId: string; category?: string; tenantIds?: string[] }) =>
    call(flowApi.modelDeploy, { body }, { meta: { whitelist: [400] } }),
  changeState: (processId: string, state: 'active' | 'suspend') =>
    call(flowApi.changeState, { query: { processId, state } }),
  deployUpload: (form: FormData) =>
    call(flowApi.deployUpload, { body: form }, { timeout: 0, meta: { whitelist: [400] } }),
  // 409: instances run and no cascade; the screen asks, then sends cascade=true.
  deleteDeployment: (ids: string[], cascade: boolean) =>
    call(
      flowApi.deleteDeployment,
      { query: { deploymentIds: ids.join(','), ...(cascade ? { cascade: 'true' as const } : {}) } },
      { meta: { whitelist: [409] } },
    ),
  deleteInstance: (processInstanceId: string, deleteReason: string) =>
    call(flowApi.deleteProcessInstance, { body: { processInstanceId, deleteReason } }),
  diagram: (processInstanceId: string) => call(flowApi.diagram, { query: { processInstanceId } }),
  history: (processInstanceId: string) => call(flowApi.historyFlowList, { query: { processInstanceId } }),
};
