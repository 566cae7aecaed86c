import { defineRoute } from '../route.ts';
import type * as S from './log.schemas.ts';

/**
 * Logs (docs/server.md "Log viewers"): the audit viewer over the rows every write leaves, and the console's uploaded error
 * log; schemas in log.schemas.ts. Permissions: the menu codes `auditlog` and `errorlog` below 系统管理
 * (apps/server/src/db/seed-data/menus.ts). Both read the caller's tenant only; another tenant's row is a 404.
 */

export const auditList = defineRoute<typeof S.auditList>()({
  method: 'GET',
  path: '/api/blade-log/audit/list',
  auth: 'user',
  permission: 'auditlog',
  summary:
    'A page of the tenant’s audit rows, newest first, filtered by entity, action, record, user (id or account) and time',
});

export const auditDetail = defineRoute<typeof S.auditDetail>()({
  method: 'GET',
  path: '/api/blade-log/audit/detail',
  auth: 'user',
  permission: 'auditlog',
  summary: 'One audit row with its before and after values and the changed fields (field, before, after)',
});

export const errorList = defineRoute<typeof S.errorList>()({
  method: 'GET',
  path: '/api/blade-log/error/list',
  auth: 'user',
  permission: 'errorlog',
  summary: 'A page of the error-log entries the tenant’s consoles uploaded, newest first, by type, address, user, time',
});

export const errorDetail = defineRoute<typeof S.errorDetail>()({
  method: 'GET',
  path: '/api/blade-log/error/detail',
  auth: 'user',
  permission: 'errorlog',
  summary: 'One uploaded error-log entry with its stack and browser',
});
