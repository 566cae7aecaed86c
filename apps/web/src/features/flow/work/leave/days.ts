/**
 * The console's figure of a leave's days while the form is filled in — the server's rule (apps/server/src/modules/
 * leave/days.ts, docs/workflow.md "The leave process"): half days of the calendar, a morning before 12:00 and an
 * afternoon from 12:00; a leave covers every half day from the one its start falls in to the one its end falls in
 * (an end at 12:00 or earlier ends in the morning, an end at 00:00:00 in the afternoon before). The server computes
 * the figure it stores; the form shows that one after submitting.
 */
const DAY_MS = 86_400_000;
const NOON_MS = DAY_MS / 2;

/** The picked wall-clock time read as UTC, as the server reads the text the form sends (no time zone). */
const wall = (d: Date) =>
  Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds());
const half = (ms: number) => Math.floor(ms / DAY_MS) * 2 + (ms % DAY_MS < NOON_MS ? 0 : 1);

export function estimateDays(start: Date | null | undefined, end: Date | null | undefined): number | null {
  if (!start || !end) return null;
  const s = wall(start);
  const e = wall(end);
  if (!Number.isFinite(s) || !Number.isFinite(e) || e <= s) return null;
  return (half(e - 1) - half(s) + 1) / 2;
}

/** A date-time as the leave calls send it: local `YYYY-MM-DD HH:mm:ss` (19 characters, no zone). */
export function wireTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
