/**
 * The console's estimate of a leave's days, shown while the form is filled in: the time between start and end in
 * half days, rounded up (12 hours = half a day). The server computes the figure it stores (docs/workflow.md "The
 * leave process"); the form shows that one after submitting.
 */
export function estimateDays(start: Date | null | undefined, end: Date | null | undefined): number | null {
  if (!start || !end) return null;
  const ms = end.getTime() - start.getTime();
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return Math.ceil(ms / (12 * 3600_000)) / 2;
}

/** A date-time as the leave calls send it: local `YYYY-MM-DD HH:mm:ss` (19 characters, no zone). */
export function wireTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
