/** Texts of the tenant module (the message catalogue's per-module part). */
export const tenantTexts = {
  platformFixed: { zh: '平台租户不能删除或修改编号', en: 'The platform tenant cannot be removed or renumbered' },
  /** `{n}`: the tenant's account quota. */
  quota: { zh: '已达到租户账号额度（{n}），不能再添加用户', en: "The tenant's account quota ({n}) is used up" },
  expired: { zh: '租户已过期', en: 'The tenant has expired' },
  idUsedBefore: {
    zh: '该租户编号属于已删除的租户，其数据仍保留，请换一个编号',
    en: 'This tenant id belonged to a removed tenant whose data is kept; choose another id',
  },
  idsExhausted: { zh: '租户编号已用尽，请手动指定', en: 'No free tenant id; give one' },
  // The per-tenant export and import (docs/tenants.md "Export format").
  importNoFile: { zh: '请选择要导入的租户导出文件', en: 'Choose the tenant export file to import' },
  importNotExport: {
    zh: '文件不是租户导出文件（首行应为 atrium-tenant-export 的文件头）',
    en: 'The file is not a tenant export (its first line must be an atrium-tenant-export header)',
  },
  /** `{found}`: the file's version; `{expected}`: the server's. */
  importVersion: {
    zh: '导出文件格式版本 {found} 不受支持（本服务器读取版本 {expected}）',
    en: 'Export format version {found} is not supported (this server reads version {expected})',
  },
  /** `{found}`, `{expected}`: migration ids. */
  importMigration: {
    zh: '导出文件来自数据库结构版本 {found}，本数据库为 {expected}：请在相同版本的服务器之间导入',
    en: 'The export was made at schema migration {found} and this database is at {expected}: import between servers of the same version',
  },
  /** `{found}`: the file's tenant. */
  importTenant: {
    zh: '导出文件属于租户 {found}，不能导入到其他租户',
    en: 'The export belongs to tenant {found} and cannot be imported into another tenant',
  },
  importNotEmpty: {
    zh: '该租户已有数据：导入只写入空租户，如需覆盖请选择“替换现有数据”',
    en: 'The tenant already holds data: an import fills an empty tenant only; choose "replace" to overwrite it',
  },
  /** `{line}`: the line number in the file. */
  importBroken: {
    zh: '导出文件第 {line} 行已损坏或被截断，未导入任何数据',
    en: 'Line {line} of the export is damaged or cut short; nothing was imported',
  },
  importUnknownTenant: { zh: '租户不存在', en: 'The tenant does not exist' },
  importPlatform: {
    zh: '平台租户 000000 不能导入或迁移',
    en: 'The platform tenant 000000 cannot be imported or moved',
  },
  embeddedNoMove: {
    zh: '嵌入式数据库（PGlite）只有一个数据库，不能把租户迁到其他数据源：请使用 PostgreSQL 部署',
    en: 'The embedded database (PGlite) has no second database to move a tenant to: deploy on PostgreSQL',
  },
  moveRunning: { zh: '该租户正在迁移中', en: 'This tenant is being moved already' },
  /** `{rows}`, `{ms}`. */
  moved: { zh: '迁移完成：{rows} 行，用时 {ms} 毫秒', en: 'Moved {rows} rows in {ms} ms' },
  /** `{tables}`, `{rows}`. */
  imported: { zh: '已导入 {tables} 张表共 {rows} 行', en: 'Imported {rows} rows into {tables} tables' },
};
