import { defineResource } from '../../resource/define.ts';

/** 子域名状态 (docs/subdomains.md): 0 applied → 1 approved | 4 rejected; 1 or 3 → 2 running → 3 stopped. */
export const SUBDOMAIN_STATUS = { applied: 0, approved: 1, running: 2, stopped: 3, rejected: 4 } as const;

/** One DNS label as the console and the server accept it (the full rules: checkSubDomainLegal). */
export const SUBDOMAIN_LABEL = '^[a-z][a-z0-9-]{1,30}[a-z0-9]$';

/**
 * 子域名: an approved client's own portal at `<label>.<base domain>` (docs/subdomains.md). Records come from an
 * application (`submitSubDomainApply`, reviewed through an approval), never from a submit without an id; submit
 * changes the remark and the bind limit. Rows follow the data scope (region, or the client account's own client).
 */
export const subdomain_list = defineResource({
  code: 'subdomain_list',
  group: 'subdomain',
  base: '/api/blade-business/subDomain',
  listPath: 'pagelist',
  label: { zh: '子域名', en: 'Sub-domains' },
  scope: 'tenant',
  dataScope: true,
  create: false,
  fields: {
    subDomain: {
      kind: 'text',
      max: 32,
      label: { zh: '子域名', en: 'Sub-domain' },
      readOnly: true,
      search: 'like',
      sort: true,
    },
    fullDomain: { kind: 'text', label: { zh: '完整域名', en: 'Full domain' }, readOnly: true, search: 'like' },
    clientId: {
      kind: 'ref',
      ref: 'clientinfo',
      options: { url: '/api/blade-business/clientInfo/clientList', value: 'id', label: 'clientName' },
      label: { zh: '客户', en: 'Client' },
      readOnly: true,
      search: 'eq',
      ui: { display: 'clientName' },
    },
    clientName: { kind: 'text', label: { zh: '客户名称', en: 'Client name' }, virtual: true, ui: { column: false } },
    appClientAccount: {
      kind: 'text',
      max: 45,
      label: { zh: '客户账号', en: 'Client account' },
      readOnly: true,
      search: 'eq',
    },
    regionCode: { kind: 'region', label: { zh: '所属区域', en: 'Region' }, readOnly: true, search: 'eq' },
    status: {
      kind: 'dict',
      dict: 'subdomain_state',
      keys: 'int',
      values: [0, 1, 2, 3, 4],
      options: [
        { value: 0, label: { zh: '申请中', en: 'Applied' } },
        { value: 1, label: { zh: '已通过', en: 'Approved' } },
        { value: 2, label: { zh: '运行中', en: 'Running' } },
        { value: 3, label: { zh: '已停用', en: 'Stopped' } },
        { value: 4, label: { zh: '已驳回', en: 'Rejected' } },
      ],
      label: { zh: '状态', en: 'Status' },
      readOnly: true,
      search: 'in',
      sort: true,
    },
    bindCount: { kind: 'int', label: { zh: '已绑定设备', en: 'Devices bound' }, readOnly: true, sort: true },
    bindLimit: {
      kind: 'int',
      min: 0,
      max: 100000,
      label: { zh: '绑定上限', en: 'Bind limit' },
      sample: 10,
    },
    startTime: { kind: 'datetime', label: { zh: '启用时间', en: 'Started' }, readOnly: true, sort: true },
    stopTime: { kind: 'datetime', label: { zh: '停用时间', en: 'Stopped' }, readOnly: true },
    remark: { kind: 'textarea', max: 500, label: { zh: '备注', en: 'Remark' }, ui: { column: false } },
  },
  actions: {
    start: {
      label: { zh: '启用', en: 'Start' },
      path: 'startSubDomain',
      from: [1, 3],
      to: 2,
      confirm: { zh: '启用后该域名即可访问，确定启用?', en: 'The domain will answer once started. Start it?' },
      done: { zh: '已启用', en: 'Started' },
      refused: {
        zh: '只有已通过或已停用的子域名可以启用',
        en: 'Only an approved or stopped sub-domain can be started',
      },
    },
    stop: {
      label: { zh: '停用', en: 'Stop' },
      path: 'stopSubDomain',
      from: [2],
      to: 3,
      confirm: { zh: '停用后该域名将无法访问，确定停用?', en: 'The domain will stop answering. Stop it?' },
      done: { zh: '已停用', en: 'Stopped' },
      refused: { zh: '只有运行中的子域名可以停用', en: 'Only a running sub-domain can be stopped' },
      danger: true,
    },
    unbind: {
      label: { zh: '解绑一台设备', en: 'Unbind one device' },
      code: 'subdomain_list_edit',
      path: 'decreseBindSubDomain',
      done: { zh: '已减少绑定数', en: 'Bind count decreased' },
    },
  },
});
