import { shell } from '@atrium/contract';
import { call } from './call';
import type { LogEntry } from '../stores/errorLog';

/** Sends the local error log to the server. */
export const sendLogs = (logs: LogEntry[]) => call(shell.errorLogs, { body: logs });
