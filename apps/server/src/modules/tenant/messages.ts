/** Texts of the tenant module (the message catalogue's per-module part). */
export const tenantTexts = {
  platformFixed: { zh: '平台租户不能删除或修改编号', en: 'The platform tenant cannot be removed or renumbered' },
  datasource: { zh: '暂不支持', en: 'Not supported yet' },
};
