import { ErrorScreen } from './logs/ErrorScreen';

/** The menu's screen (`/system/errorlog/index`, docs/web.md "Log screens"); built in `logs/`. */
export default ErrorScreen;
