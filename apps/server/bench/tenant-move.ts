// Moving a tenant to its own database (issue 28 §2; docs/tenants.md "Moving a tenant"): a throwaway main database,
// migrated and seeded, with one tenant holding BENCH_TM_CLIENTS (100,000) clients and BENCH_TM_DEVICES (1,000,000)
// cameras (written with generate_series, as the business writes them: the statistics triggers run), and a second
// throwaway database as its data source. Times: the export alone (rows/s, to nothing), the move to the data source
// (`bindTenant`: migrate the target, export + COPY import, delete on the main database) and the move back; the
// server process's CPU beside each. Aim (the issue's figure): the move's time at 100,000 clients and 1,000,000 cameras.
// Alone: `cd apps/server && npx tsx bench/tenant-move.ts`, or `BENCH_ONLY=tenant-move npm run bench` at the root
// (results.tenantMove). Knobs: BENCH_PG_URL (the admin URL, default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_TM_CLIENTS, BENCH_TM_DEVICES, BENCH_TM_KEEP_DB=1.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createServices } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/seed/seed.ts';
import { seal } from '../src/platform/secrets.ts';
import { bindTenant, closeTenantPools } from '../src/modules/tenant/move.ts';
import { exportTenant } from '../src/modules/tenant/transfer.ts';
import { printFigure, runIfMain, type Log } from './lib.ts';

const TENANT = '710099';

export type TenantMoveResult = {
  clients: number;
  devices: number;
  tenantRows: number;
  fillMs: number;
  export: { ms: number; rowsPerSec: number; cpuMs: number; bytes: number };
  moveTo: { ms: number; rowsPerSec: number; cpuMs: number };
  moveBack: { ms: number; rowsPerSec: number; cpuMs: number };
  load: number[];
};

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return Math.round((u.user + u.system) / 1000);
};

export async function benchTenantMove(serverDir: string, log: Log = printFigure): Promise<TenantMoveResult> {
  // Every module's tables in the schema registry (the app registers every module; this bench builds no app).
  const modules = path.join(serverDir, 'src', 'modules');
  for (const m of fs.readdirSync(modules)) {
    const table = path.join(modules, m, 'table.ts');
    if (fs.existsSync(table)) await import(pathToFileURL(table).href);
  }
  const clients = Number(process.env.BENCH_TM_CLIENTS ?? 100_000);
  const devices = Number(process.env.BENCH_TM_DEVICES ?? 1_000_000);
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const tag = randomBytes(4).toString('hex');
  const names = { main: `atrium_bench_tm_${tag}`, tenant: `atrium_bench_tmt_${tag}` };
  const urlOf = (db: string) => {
    const u = new URL(adminUrl);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin = new pg.Client({ connectionString: adminUrl });
  admin.on('error', () => {});
  await admin.connect();
  for (const n of Object.values(names)) await admin.query(`create database ${n}`);
  const database = await openDatabase({ databaseUrl: urlOf(names.main) });
  const config = {
    ...loadConfig({
      NODE_ENV: 'production',
      ATRIUM_JWT_SECRET: 'x'.repeat(40),
      ATRIUM_ADMIN_PASSWORD: 'Bench#Admin#2026',
    }),
    datasourcePrivateNetworks: ['127.0.0.0/8', '::1/128'],
  };
  const s = createServices({ config, db: database.db, signingKey: randomBytes(32).toString('hex') });
  try {
    await database.migrate();
    await seedIfEmpty(database.db, { adminPassword: 'Bench#Admin#2026' });
    const t0 = performance.now();
    const c = new pg.Client({ connectionString: urlOf(names.main) });
    c.on('error', () => {});
    await c.connect();
    await c.query(`insert into tenant (id, tenant_id, tenant_name) values (9000000000000000001, $1, 'bench')`, [
      TENANT,
    ]);
    await c.query(
      `insert into client_info (id, tenant_id, client_name, client_type, credit_code, contact_name, operator_tel, region_code)
       select 8100000000000000000 + g, $1, 'client ' || g, 1, lpad(g::text, 18, '0'), 'contact', '1' || lpad(g::text, 10, '0'),
         '1101' || lpad((g % 18 + 1)::text, 2, '0')
       from generate_series(1, $2::int) g`,
      [TENANT, clients],
    );
    await c.query(
      `insert into camera_device (id, tenant_id, device_code, name, device_type, region_code, client_id)
       select 8200000000000000000 + g, $1, 'D' || g, 'camera ' || g, 'IPC', '1101' || lpad((g % 18 + 1)::text, 2, '0'),
         8100000000000000000 + (g % $3::int) + 1
       from generate_series(1, $2::int) g`,
      [TENANT, devices, clients],
    );
    await c.query('vacuum analyze client_info');
    await c.query('vacuum analyze camera_device');
    await c.end();
    const fillMs = Math.round(performance.now() - t0);
    log('tenant-move fill (ms)', fillMs);

    const [{ id: dsId }] = await database.db
      .execute(
        sql`insert into datasource (id, name, url, username, password_sealed) values (9100000000000000001, 'bench', ${`postgres://127.0.0.1:${new URL(adminUrl).port || 5432}/${names.tenant}`}, ${decodeURIComponent(new URL(adminUrl).username) || 'postgres'}, ${seal(s, decodeURIComponent(new URL(adminUrl).password))}) returning id::text as id`,
      )
      .then((r) => (r as unknown as { rows: { id: string }[] }).rows);

    // The export alone, to nothing: the read side's rate.
    let bytes = 0;
    let cpu = process.cpuUsage();
    let t = performance.now();
    const exported = await exportTenant(database.db, TENANT, async (text) => void (bytes += Buffer.byteLength(text)));
    const exportMs = performance.now() - t;
    const exportCpu = cpuMs(cpu);
    log('tenant-move export rows', exported.rows);
    log('tenant-move export (ms, rows/s, cpu ms)', [
      Math.round(exportMs),
      Math.round(exported.rows / (exportMs / 1000)),
      exportCpu,
    ]);

    cpu = process.cpuUsage();
    t = performance.now();
    const to = await bindTenant(s, TENANT, dsId);
    const toMs = performance.now() - t;
    const toCpu = cpuMs(cpu);
    log('tenant-move move to its database (ms, rows/s, cpu ms)', [
      Math.round(toMs),
      Math.round(to.rows / (toMs / 1000)),
      toCpu,
    ]);

    cpu = process.cpuUsage();
    t = performance.now();
    const back = await bindTenant(s, TENANT, null);
    const backMs = performance.now() - t;
    const backCpu = cpuMs(cpu);
    log('tenant-move move back (ms, rows/s, cpu ms)', [
      Math.round(backMs),
      Math.round(back.rows / (backMs / 1000)),
      backCpu,
    ]);
    const load = os.loadavg().map((x) => Math.round(x * 100) / 100);
    log('load average', load);
    return {
      clients,
      devices,
      tenantRows: exported.rows,
      fillMs,
      export: {
        ms: Math.round(exportMs),
        rowsPerSec: Math.round(exported.rows / (exportMs / 1000)),
        cpuMs: exportCpu,
        bytes,
      },
      moveTo: { ms: Math.round(toMs), rowsPerSec: Math.round(to.rows / (toMs / 1000)), cpuMs: toCpu },
      moveBack: { ms: Math.round(backMs), rowsPerSec: Math.round(back.rows / (backMs / 1000)), cpuMs: backCpu },
      load,
    };
  } catch (err) {
    console.error('tenant-move bench failed:', err);
    throw err;
  } finally {
    await closeTenantPools(s);
    await database.close();
    if (!process.env.BENCH_TM_KEEP_DB)
      for (const n of Object.values(names)) await admin.query(`drop database if exists ${n} with (force)`);
    await admin.end();
  }
}

runIfMain(import.meta.url, benchTenantMove);
