// The workflow's lists at scale and the restart (issue 26 §4; README "Benchmarks", docs/workflow.md "Cost"): a
// throwaway PostgreSQL database migrated, one tenant with its managers (100 waiting tasks each), applicants and 100 HR
// users (role alias `hr`), the leave model deployed, then
//   1. BENCH_FLOWLISTS_INSTANCES (10,000) leave instances started through the engine's `startInstance` by
//      BENCH_FLOWLISTS_WORKERS (20) concurrent callers (starts/s), and a tenth of them completed (pass) by their
//      managers — other than the timed one — so HR's claim-list holds as many tasks and those managers' done-lists rows;
//   2. the server (a child process) on that database: one manager's todo-list (page 1 and page 10, size 10), an HR
//      user's claim-list, a done-list and the bell's waiting-count, p50 / p99 each, the todo list beside its SQL run
//      directly and under row-level security in a transaction (as the server runs it), and the endpoint and that SQL
//      called in turn (both meet the same machine). Aim: todo-list p99 ≤ 50 ms;
//   3. recovery: the server killed (SIGKILL) and spawned again: spawn → answering, and spawn → a complete-task through
//      HTTP on one of the instances succeeds (nothing is loaded up front). Aim: ≤ 5 s.
// Alone: `cd apps/server && npx tsx bench/flow-lists.ts`, or `BENCH_ONLY=flowlists npm run bench` at the root
// (results.flowLists). Knobs: BENCH_PG_URL, BENCH_FLOWLISTS_INSTANCES, BENCH_FLOWLISTS_WORKERS,
// BENCH_FLOWLISTS_REQUESTS (200), BENCH_FLOWLISTS_WARMUP (100), BENCH_FLOWLISTS_BUDGET_MS (15000),
// BENCH_FLOWLISTS_PORT, BENCH_EXPLAIN=1 (EXPLAIN ANALYZE of the lists' SQL), BENCH_FLOWLISTS_KEEP_DB=1.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { flowApi } from '@atrium/contract';
import { openDatabase } from '../src/db/client.ts';
import { completeTask, startInstance, type FlowCaller } from '../src/modules/flow/engine/service.ts';
import { hashPassword, md5Hex } from '../src/platform/password.ts';
import { deploy, LEAVE_XML } from '../test/support/flow-fixture.ts';
import {
  asTenant,
  BASIC,
  captchaLogin,
  type Log,
  prebuilt,
  printFigure,
  printPlans,
  round,
  runIfMain,
  sleep,
  stat,
  type SqlQuery,
  type Stat,
  stop,
  throwawayDb,
  timed,
  timingKnobs,
  waitFor,
} from './lib.ts';

const TENANT = '100001';
const PASSWORD = 'Bench-flow-1';
const PER_MANAGER = 100;
const HR_USERS = 100;
const ID_BASE = 9_100_000_000_000_000n;
const WORK_CODES = ['work_start', 'work_send', 'work_done', 'work_todo', 'work_todo_handle'];
const HR_CODES = ['work_claim', 'work_claim_sign', 'work_todo', 'work_todo_handle', 'work_done'];

type Who = { account: string; caller: FlowCaller };
type People = { managers: Who[]; applicants: Who[]; hr: Who[] };

export type FlowListsResult = {
  instances: number;
  managers: number;
  workers: number;
  seedMs: number;
  start: Stat & { perSecond: number };
  complete: Stat & { perSecond: number; count: number };
  /** Per list: the endpoint, its total (waiting-count: todo + claim), and its SQL directly and under RLS. */
  lists: Record<string, { endpoint: Stat; total: number; raw?: Stat; rawRls?: Stat }>;
  /** The todo list's endpoint and its SQL under RLS called in turn (page 1). */
  todoInTurn: { endpoint: Stat; rawRls: Stat; ratio: number };
  aims: { todoP99Under50: boolean; recoveryUnder5s: boolean };
  recovery: { answeringMs: number; completedMs: number; reLogin: boolean };
};

/** The roles (staff: my work; hr: my work and claims) and the users, written directly as the platform's connection. */
async function seedPeople(c: pg.Client, managers: number): Promise<People> {
  const q = (text: string, values: unknown[] = []) => c.query(text, values);
  await q(`create temp sequence bench_id start ${ID_BASE}`);
  const id = async () => String((await q(`select nextval('bench_id') as id`)).rows[0].id);
  await q(
    `insert into tenant (id, tenant_id, tenant_name, linkman, contact_number, account_number)
    values (nextval('bench_id'), $1, '压测租户', 'admin', '13800000000', -1)`,
    [TENANT],
  );
  const roleOf = async (alias: string, name: string, codes: string[]) => {
    const roleId = await id();
    await q(`insert into role (id, tenant_id, parent_id, role_name, role_alias, sort) values ($1, $2, 0, $3, $4, 1)`, [
      roleId,
      TENANT,
      name,
      alias,
    ]);
    const menus = await q(
      `insert into role_menu (role_id, menu_id, tenant_id) select $1, id, $2 from menu
      where tenant_id = '000000' and is_deleted = 0 and code = any($3::text[])`,
      [roleId, TENANT, codes],
    );
    if (menus.rowCount !== codes.length) throw new Error(`menu codes missing among ${codes.join(',')}`);
    return roleId;
  };
  const staff = await roleOf('staff', '员工', WORK_CODES);
  const hrRole = await roleOf('hr', '人事', HR_CODES);
  const hash = await hashPassword(md5Hex(PASSWORD));
  // real_name holds 10 characters: `short` names the people there (m1, a1, h1).
  const users = async (prefix: string, short: string, n: number, roleId: string): Promise<Who[]> => {
    const rows = await q(
      `insert into "user" (id, tenant_id, account, password, name, real_name, must_change_password)
      select nextval('bench_id'), $1::varchar, $2::text || g, $3, $2::text || g, $5::text || g, 0
      from generate_series(1, $4::int) g
      returning id, account`,
      [TENANT, prefix, hash, n, short],
    );
    await q(
      `insert into user_role (user_id, role_id, tenant_id) select id, $2::bigint, $3::varchar from "user"
      where tenant_id = $3::varchar and account ~ ('^' || $1::text || '[0-9]+$')`,
      [prefix, roleId, TENANT],
    );
    return (rows.rows as { id: string; account: string }[])
      .map((r) => ({ account: r.account, caller: { tenantId: TENANT, userId: String(r.id), roleIds: [roleId] } }))
      .sort((a, b) => Number(a.account.slice(prefix.length)) - Number(b.account.slice(prefix.length)));
  };
  return {
    managers: await users('manager', 'm', managers, staff),
    applicants: await users('applicant', 'a', managers, staff),
    hr: await users('hr', 'h', HR_USERS, hrRole),
  };
}

/** `items` through `fn` by `workers` concurrent callers: calls/s and p50 / p99 of a call. */
async function phase<T>(items: T[], workers: number, fn: (item: T) => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) {
        const item = items[next++];
        const a = performance.now();
        await fn(item);
        times.push(performance.now() - a);
      }
    }),
  );
  return { perSecond: Math.round(items.length / ((performance.now() - t0) / 1000)), ...stat(times) };
}

/**
 * The todo list's SQL as queries.ts `taskPage` writes it (page, then the count it runs when the page is full or not
 * the first); claim and done are the same query with their own conditions and order.
 */
export function taskListSql(kind: 'todo' | 'claim' | 'done', userId: string, current: number, size = 10) {
  const own = {
    todo: { where: 't.assignee_id = $2 and t.status = 1', values: [userId], order: 't.id desc' },
    claim: {
      where: `t.status = 1 and t.assignee_id is null and t.candidate_roles && array['hr']::text[]`,
      values: [],
      order: 't.id desc',
    },
    done: { where: 't.completed_by = $2', values: [userId], order: 't.complete_time desc, t.id desc' },
  }[kind];
  const where = `t.tenant_id = $1 and ${own.where}`;
  const values = [TENANT, ...own.values];
  const page: SqlQuery = {
    text: `select t.id, t.name, t.element_id, t.assignee_id, coalesce(h.real_name, h.name, h.account), t.create_time,
      t.claim_time, t.complete_time, t.outcome, t.comment, i.id, i.status, i.business_key, i.starter_id,
      coalesce(s.real_name, s.name, s.account), d.id, d.def_key, d.name, d.def_version, d.category, d.suspended
    from flow_task t join flow_instance i on i.id = t.instance_id join flow_definition d on d.id = t.definition_id
      left join "user" s on s.id = i.starter_id left join "user" h on h.id = t.assignee_id
    where ${where} order by ${own.order} limit ${size} offset ${(current - 1) * size}`,
    values,
  };
  const count: SqlQuery = {
    text: `select count(*) from flow_task t join flow_definition d on d.id = t.definition_id where ${where}`,
    values,
  };
  return { page, count };
}

/** Instances started, a tenth of them completed by their managers (the last ones: the first manager is timed). */
async function seedWork(dbUrl: string, people: People, instances: number, workers: number, log: Log) {
  const database = await openDatabase({ databaseUrl: dbUrl, poolSize: 8 });
  try {
    const s = { db: database.db, now: () => new Date() };
    const definitionId = await deploy(database.db, TENANT, 'leave', LEAVE_XML);
    const tasks: { managerIndex: number; taskId: string }[] = [];
    const start = await phase(
      Array.from({ length: instances }, (_, i) => i),
      workers,
      async (i) => {
        const managerIndex = i % people.managers.length;
        const r = await startInstance(s, people.applicants[managerIndex].caller, {
          definitionId,
          businessKey: `b${i}`,
          variables: { taskUser: people.managers[managerIndex].caller.userId, days: 1 + (i % 5) },
        });
        tasks.push({ managerIndex, taskId: r.tasks[0].id });
      },
    );
    log('flow lists: starts (per s, p50/p99 ms)', start);
    const doneManagers = Math.max(1, Math.floor(people.managers.length / 10));
    const first = people.managers.length - doneManagers;
    const toComplete = tasks.filter((t) => t.managerIndex >= first && t.managerIndex > 0);
    const complete = await phase(toComplete, workers, async (t) => {
      await completeTask(s, people.managers[t.managerIndex].caller, { taskId: t.taskId, flag: 'ok', comment: 'ok' });
    });
    log('flow lists: completes (per s, p50/p99 ms)', { ...complete, count: toComplete.length });
    return { start, complete: { ...complete, count: toComplete.length }, doneManager: people.managers.at(-1)! };
  } finally {
    await database.close();
  }
}

/** GET `url` (n timed after warm), checked to answer 200; the total of the first answer. */
async function timeGet(url: string, headers: Record<string, string>, k: ReturnType<typeof timingKnobs>) {
  const probe = await fetch(url, { headers });
  const body = (await probe.json()) as { data?: { total?: number; todo?: number; claim?: number } };
  if (probe.status !== 200) throw new Error(`${url} answered ${probe.status}: ${JSON.stringify(body).slice(0, 300)}`);
  const total = Number(body.data?.total ?? (body.data?.todo ?? 0) + (body.data?.claim ?? 0));
  const endpoint = stat(
    await timed(
      k.n,
      k.warm,
      async () => {
        const r = await fetch(url, { headers });
        if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
        await r.arrayBuffer();
      },
      k.budgetMs,
    ),
  );
  return { endpoint, total };
}

/** Count (when the page is full) and page, run directly and under RLS in a transaction. */
async function timeRaw(c: pg.Client, q: ReturnType<typeof taskListSql>, k: ReturnType<typeof timingKnobs>) {
  const run = async () => {
    await c.query(q.page);
    await c.query(q.count);
  };
  const raw = stat(await timed(k.n, k.warm, run, k.budgetMs));
  const rawRls = stat(await timed(k.n, k.warm, () => asTenant(c, TENANT, run), k.budgetMs));
  return { raw, rawRls };
}

/** The todo list's endpoint and its SQL under RLS called in turn, n pairs after warm. */
async function inTurn(
  c: pg.Client,
  url: string,
  headers: Record<string, string>,
  q: ReturnType<typeof taskListSql>,
  k: ReturnType<typeof timingKnobs>,
) {
  const e: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < k.warm + k.n; i++) {
    let t0 = performance.now();
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
    const te = performance.now() - t0;
    t0 = performance.now();
    await asTenant(c, TENANT, async () => {
      await c.query(q.page);
      await c.query(q.count);
    });
    if (i >= k.warm) {
      e.push(te);
      r.push(performance.now() - t0);
    }
  }
  const [endpoint, rawRls] = [stat(e), stat(r)];
  return { endpoint, rawRls, ratio: round(endpoint.p50 / rawRls.p50) };
}

function headersOf(token: string) {
  return { authorization: BASIC, 'blade-auth': `bearer ${token}`, 'content-type': 'application/json' };
}

/** The server, built once before any clock runs (bench/lib.ts `prebuilt`), spawned on the database. */
function serve(args: string[], env: Record<string, string>, serverDir: string): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function completeThrough(base: string, headers: Record<string, string>, taskId: string, instanceId: string) {
  return fetch(`${base}${flowApi.completeTask.path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ taskId, processInstanceId: instanceId, flag: 'ok', comment: 'after restart' }),
  });
}

/** SIGKILL, spawn again: spawn → answering, spawn → a complete-task through HTTP succeeds. */
async function recovery(
  o: { server: ChildProcess; args: string[]; env: Record<string, string>; serverDir: string; base: string },
  login: () => Promise<string>,
  token: string,
  task: { taskId: string; processInstanceId: string },
) {
  const gone = new Promise((r) => o.server.once('exit', r));
  o.server.kill('SIGKILL');
  await gone;
  const t0 = performance.now();
  const server = serve(o.args, o.env, o.serverDir);
  await waitFor(`${o.base}/api/blade-system/tenant/info?domain=x`, 120_000);
  const answeringMs = Math.round(performance.now() - t0);
  let res = await completeThrough(o.base, headersOf(token), task.taskId, task.processInstanceId);
  let reLogin = false;
  if (res.status === 401) {
    reLogin = true;
    res = await completeThrough(o.base, headersOf(await login()), task.taskId, task.processInstanceId);
  }
  const completedMs = Math.round(performance.now() - t0);
  if (res.status !== 200)
    throw new Error(`complete-task after the restart answered ${res.status}: ${await res.text()}`);
  return { server, result: { answeringMs, completedMs, reLogin } };
}

export async function benchFlowLists(serverDir: string, log: Log = printFigure): Promise<FlowListsResult> {
  const instances = Number(process.env.BENCH_FLOWLISTS_INSTANCES ?? 10_000);
  const workers = Number(process.env.BENCH_FLOWLISTS_WORKERS ?? 20);
  const managers = Math.max(2, Math.ceil(instances / PER_MANAGER));
  const k = timingKnobs('FLOWLISTS', { warm: 100 });
  const db = await throwawayDb('flowlists', 'BENCH_FLOWLISTS_PORT', 'BENCH_FLOWLISTS_KEEP_DB');
  const built = await prebuilt('test/captcha-file-server.ts', serverDir);
  const captchaFile = path.join(db.dir, 'captchas.txt');
  const env = { ...db.env, ATRIUM_E2E_CAPTCHA_FILE: captchaFile };
  let server: ChildProcess | undefined;
  let c: pg.Client | undefined;
  try {
    // 1. Migrate + seed the platform (menus) with the real start-up, then the tenant, the work.
    await stop(await db.start('src/main.ts', serverDir));
    c = new pg.Client({ connectionString: db.dbUrl });
    await c.connect();
    const t0 = performance.now();
    const people = await seedPeople(c, managers);
    const work = await seedWork(db.dbUrl, people, instances, workers, log);
    await c.query('vacuum analyze');
    await c.query('checkpoint');
    const seedMs = Math.round(performance.now() - t0);
    log('flow lists: instances / managers / seed ms', `${instances} / ${managers} / ${seedMs}`);

    // 2. The server; a manager with 100 waiting tasks, an HR user, a manager with completed tasks log in.
    server = serve(built.args, env, serverDir);
    await waitFor(`${db.base}/api/blade-system/tenant/info?domain=x`, 120_000);
    const login = (who: Who) => captchaLogin(db.base, captchaFile, who.account, PASSWORD, TENANT);
    const manager = people.managers[0];
    const [mh, hh, dh] = [
      headersOf(await login(manager)),
      headersOf(await login(people.hr[0])),
      headersOf(await login(work.doneManager)),
    ];
    const url = (p: string, q: Record<string, string> = {}) => `${db.base}${p}?${new URLSearchParams(q)}`;
    const cases = [
      { key: 'todoPage1', url: url(flowApi.todoList.path, { current: '1', size: '10' }), h: mh, sql: ['todo', 1] },
      { key: 'todoPage10', url: url(flowApi.todoList.path, { current: '10', size: '10' }), h: mh, sql: ['todo', 10] },
      { key: 'claimPage1', url: url(flowApi.claimList.path, { current: '1', size: '10' }), h: hh, sql: ['claim', 1] },
      { key: 'donePage1', url: url(flowApi.doneList.path, { current: '1', size: '10' }), h: dh, sql: ['done', 1] },
      { key: 'waitingCount', url: url(flowApi.waitingCount.path), h: mh },
    ] as const;
    const userOf = { todo: manager, claim: people.hr[0], done: work.doneManager };
    const lists: FlowListsResult['lists'] = {};
    for (const x of cases) {
      const got = await timeGet(x.url, x.h, k);
      let rawSide = {};
      if ('sql' in x) {
        const [kind, current] = x.sql;
        const q = taskListSql(kind, userOf[kind].caller.userId, current);
        if (process.env.BENCH_EXPLAIN === '1') await printPlans(c, [q.page, q.count], TENANT);
        rawSide = await timeRaw(c, q, k);
      }
      lists[x.key] = { ...got, ...rawSide };
      log(`flow lists: ${x.key} (${x.key === 'waitingCount' ? 'todo + claim' : 'total'} ${got.total}) ms`, {
        endpoint: got.endpoint,
        ...rawSide,
      });
    }
    const todoInTurn = await inTurn(c, cases[0].url, mh, taskListSql('todo', manager.caller.userId, 1), k);
    log('  todo page 1: endpoint and SQL under RLS in turn', todoInTurn);

    // 3. Recovery: kill -9, spawn, answer, complete one of the manager's tasks through HTTP.
    const [task] = (
      await c.query<{ id: string; instance_id: string }>(
        `select id, instance_id from flow_task where tenant_id = $1 and assignee_id = $2 and status = 1 limit 1`,
        [TENANT, manager.caller.userId],
      )
    ).rows;
    const again = await recovery(
      { server, args: built.args, env, serverDir, base: db.base },
      () => login(manager),
      mh['blade-auth'].slice('bearer '.length),
      { taskId: String(task.id), processInstanceId: String(task.instance_id) },
    );
    server = again.server;
    log('flow lists: recovery, spawn → answering / → completed ms', again.result);
    const aims = {
      todoP99Under50: lists.todoPage1.endpoint.p99 <= 50 && lists.todoPage10.endpoint.p99 <= 50,
      recoveryUnder5s: again.result.completedMs <= 5000,
    };
    log('flow lists: aims (todo p99 ≤ 50 ms, recovery ≤ 5 s)', aims);
    return {
      instances,
      managers,
      workers,
      seedMs,
      start: work.start,
      complete: work.complete,
      lists,
      todoInTurn,
      aims,
      recovery: again.result,
    };
  } finally {
    if (server) await stop(server);
    await sleep(100);
    await c?.end().catch(() => {});
    built.remove();
    await db.close();
  }
}

runIfMain(import.meta.url, benchFlowLists);
