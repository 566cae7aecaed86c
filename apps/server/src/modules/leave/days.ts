/**
 * Leave times and the days a leave counts (docs/workflow.md "The leave process"). Times are wall-clock times of the
 * applicant, `yyyy-MM-dd HH:mm:ss` (or `yyyy-MM-dd HH:mm`, or `yyyy-MM-dd` alone: a whole day — its start at 00:00:00,
 * its end at 23:59:59), with no time zone.
 *
 * Days are counted in half days of the calendar (weekends and holidays count: there is no working calendar): each day
 * has a morning (before 12:00) and an afternoon (12:00 on). A leave covers every half day from the one its start falls
 * in to the one its end falls in — an end at 12:00 or earlier ends in the morning, an end at 00:00:00 in the afternoon
 * of the day before. So 09:00–12:00 is 0.5, 13:30–18:00 is 0.5, 09:00–18:00 is 1, Monday 09:00 to Wednesday 18:00 is
 * 3, Monday 14:00 to Tuesday 11:00 is 1, and a day alone is 1.
 */

export type WallTime = {
  /** `yyyy-MM-dd HH:mm:ss`, as stored and answered. */
  text: string;
  /** Milliseconds of the wall time read as UTC (for comparisons only). */
  ms: number;
};

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DAY_MS = 86_400_000;
const NOON_MS = DAY_MS / 2;
/** The longest leave: a year (366 days, a leap year's). */
export const MAX_SPAN_MS = 366 * DAY_MS;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Reads a start (`end` false) or an end time; null when it is not a valid time. */
export function parseWallTime(value: unknown, end: boolean): WallTime | null {
  if (typeof value !== 'string') return null;
  const m = TIME.exec(value.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dateOnly = m[4] === undefined;
  const [h, mi, s] = dateOnly ? (end ? [23, 59, 59] : [0, 0, 0]) : [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  // A day the month does not have (02-30) rolls over: refused.
  if (new Date(ms).getUTCDate() !== d) return null;
  return { text: `${pad(y, 4)}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`, ms };
}

/** The half-day index a start falls in. */
const startHalf = (t: WallTime) => Math.floor(t.ms / DAY_MS) * 2 + (t.ms % DAY_MS < NOON_MS ? 0 : 1);
/** The half-day index an end falls in (the half that holds the instant just before it). */
const endHalf = (t: WallTime) => {
  const at = t.ms - 1;
  return Math.floor(at / DAY_MS) * 2 + (at % DAY_MS < NOON_MS ? 0 : 1);
};

/** The days between a start and a later end, in half-day steps (at least 0.5). */
export function leaveDays(start: WallTime, end: WallTime): number {
  return (endHalf(end) - startHalf(start) + 1) / 2;
}
