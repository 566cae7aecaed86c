/** Texts of the tenant module (the message catalogue's per-module part). */
export const tenantTexts = {
  platformFixed: { zh: '平台租户不能删除或修改编号', en: 'The platform tenant cannot be removed or renumbered' },
  datasource: { zh: '暂不支持', en: 'Not supported yet' },
  /** `{n}`: the tenant's account quota. */
  quota: { zh: '已达到租户账号额度（{n}），不能再添加用户', en: "The tenant's account quota ({n}) is used up" },
  expired: { zh: '租户已过期', en: 'The tenant has expired' },
  idUsedBefore: {
    zh: '该租户编号属于已删除的租户，其数据仍保留，请换一个编号',
    en: 'This tenant id belonged to a removed tenant whose data is kept; choose another id',
  },
  idsExhausted: { zh: '租户编号已用尽，请手动指定', en: 'No free tenant id; give one' },
};
