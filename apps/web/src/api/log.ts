import { post } from './http';
import type { LogEntry } from '../stores/errorLog';

/** Sends the local error log to the server (POST /api/blade-log/error-logs). */
export const sendLogs = (logs: LogEntry[]) => post<number>('/api/blade-log/error-logs', logs);
