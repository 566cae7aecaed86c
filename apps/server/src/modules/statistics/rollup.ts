import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { availabilityOf } from '../../db/client.ts';
import { tenant } from '../../db/schema/index.ts';
import type { Services } from '../../platform/services.ts';
import { oncePerCluster } from '../../platform/singleton.ts';
import { addDays, dayIn } from './service.ts';

/** How far back a missed rollup is filled (the 30-day line, and a margin). */
export const ROLLUP_KEEP_DAYS = 31;

/**
 * The daily rollup (docs/devices.md "Statistics"): for each tenant, every day from the day after its last rolled day
 * up to yesterday (at most `ROLLUP_KEEP_DAYS` back; yesterday alone when it has none) gets the counters as they stand
 * now, summed per district, city, province and for the whole tenant (`district` = the region prefix of 6, 4, 2 or 0
 * digits), so a past day of any region down to a district and the 30-day line read a handful of rows. Run just after midnight this is the state at the end of yesterday; run at start after a stop it is exact for
 * the days the server was down too, because every change of a device goes through the server (its API and its device
 * access), so nothing changed while no server ran. Once per cluster (docs/cluster.md "What runs once"): a tenant
 * another server is rolling up at this moment is skipped and counted in `skipped` (the job then tries again later);
 * idempotent besides (ON CONFLICT DO NOTHING). Returns the rows written.
 */
export async function rollupTenants(
  s: Services,
  today = dayIn(s.config.timeZone, s.now()),
): Promise<{ written: number; skipped: number }> {
  const yesterday = addDays(today, -1);
  const tenants = await s.db.select({ id: tenant.tenantId }).from(tenant).where(eq(tenant.isDeleted, 0));
  let written = 0;
  let skipped = 0;
  for (const { id } of tenants) {
    const done = await oncePerCluster(s.db, 'statistics-rollup', id, async (tx) => {
      const r = (await tx.execute(sql`
        with last as (select max(day) as day from stat_device_daily where tenant_id = ${id}),
        days as (
          select d::date as day from last, generate_series(
            greatest(coalesce(last.day + 1, ${yesterday}::date), ${addDays(yesterday, -(ROLLUP_KEEP_DAYS - 1))}::date),
            ${yesterday}::date, interval '1 day') d
        )
        insert into stat_device_daily (tenant_id, day, district, device_type, total, online)
        select c.tenant_id, days.day, left(c.district, l.len), c.device_type, sum(c.total), sum(c.online)
        from stat_device_counter c cross join days cross join (values (0), (2), (4), (6)) l(len)
        where c.tenant_id = ${id} and length(c.district) = 6
        group by 1, 2, 3, 4
        on conflict do nothing`)) as { rowCount?: number; affectedRows?: number };
      return r.rowCount ?? r.affectedRows ?? 0;
    });
    if (done.ran) written += done.value;
    else skipped++;
  }
  return { written, skipped };
}

/** The rollup of every tenant (rollupTenants); answers the rows written. */
export async function runRollup(s: Services, today = dayIn(s.config.timeZone, s.now())): Promise<number> {
  return (await rollupTenants(s, today)).written;
}

/**
 * Runs the rollup at start and then whenever the day (in the server's time zone) has changed since the last run,
 * checked every minute. A failure is logged and tried again at the next check.
 */
export class RollupJob {
  private timer: NodeJS.Timeout | undefined;
  private lastDay: string | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly s: Services,
    private readonly log?: FastifyBaseLogger,
    private readonly everyMs = 60_000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.everyMs);
    this.timer.unref();
  }

  private tick(): void {
    const today = dayIn(this.s.config.timeZone, this.s.now());
    // A down database (docs/server.md "Database outages") is left alone: the next check after it is back runs it.
    if (today === this.lastDay || this.running || availabilityOf(this.s.db)?.down) return;
    this.running = rollupTenants(this.s, today)
      .then(({ written: n, skipped }) => {
        // A tenant another server was rolling up is looked at again at the next check (that server may die midway).
        if (!skipped) this.lastDay = today;
        if (n) this.log?.info({ rows: n, today }, 'statistics rollup');
      })
      .catch((err: Error) => this.log?.error({ err }, 'statistics rollup failed'))
      .finally(() => (this.running = undefined));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
