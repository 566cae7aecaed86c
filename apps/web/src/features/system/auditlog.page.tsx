import { AuditScreen } from './logs/AuditScreen';

/** The menu's screen (`/system/auditlog/index`, docs/web.md "Log screens"); built in `logs/`. */
export default AuditScreen;
