import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { flowApi } from '@atrium/contract';
import { globalTables } from '../src/db/schema/tables.ts';
import type { Binding } from '../src/platform/resource.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';
import { MOVE_NETWORKS, dbOfTenant, moveBack, moveTenant, type TenantDatabase } from './support/moved.ts';
import { sampleRecord } from './support/samples.ts';
import { rowsOf } from '../src/db/rows.ts';
import { startInstance } from '../src/modules/flow/index.ts';
import { LEAVE_XML } from './support/flow-fixture.ts';

/**
 * The isolation matrix, generated from the route table (not hand-listed): tenant B's administrator calls every
 * route with tenant A's ids in every id-shaped parameter (query and body) and A's tenant id forged in the query,
 * the body and the Tenant-Id header. Nothing of A may be revealed, nothing of A may change, and B's list totals
 * must not count A's rows. CRUD detail / update / remove of A's ids are 404 exactly.
 *
 * Tenant A holds one record of every bound tenant resource, made from the definitions' samples
 * (test/support/samples.ts, shared with the conformance suite), and a route of a bound resource is probed with the id
 * of that resource's record: a new resource is covered without editing this file.
 *
 * On PostgreSQL the same matrix runs three times (docs/tenants.md "Moving a tenant"): on one database, with A moved
 * to a database of its own, and with B moved instead (A back on the main one). The digests and the direct reads read
 * each tenant's rows where they live (`dbOfTenant`). PGlite has no second database: one run.
 */
const PG = process.env.DATABASE_URL;
const MODES: { name: string; moved?: '710001' | '710002' }[] = [
  { name: 'on one database' },
  ...(PG
    ? [
        { name: 'with tenant A moved', moved: '710001' as const },
        { name: 'with tenant B moved', moved: '710002' as const },
      ]
    : []),
];
let platform: string;
let moved: string | undefined;
const targets: TenantDatabase[] = [];
let t: TestApp;
let A: Awaited<ReturnType<typeof provisionedTenant>>;
let B: Awaited<ReturnType<typeof provisionedTenant>>;
const ids: Record<string, string> = {};
/** Tenant A's generated record of each bound tenant resource, by code. */
const generated: Record<string, string> = {};
const MARK = 'ALPHA秘密';

/** The bound resources whose records belong to a tenant (global and platform ones are the platform's). */
const bindings = () => t.services.registry.bindings;
const tenantBindings = () => [...bindings().values()].filter((b) => b.def.scope === 'tenant' && !b.def.platformOnly);

/** The bound resource a route belongs to: the longest base the route's path starts with. */
function ownerOf(url: string): Binding | undefined {
  let best: Binding | undefined;
  for (const b of bindings().values())
    if (url.startsWith(`${b.def.base}/`) && (!best || b.def.base.length > best.def.base.length)) best = b;
  return best;
}

/** Every table that carries tenant_id (found in the database, not listed by hand), except the declared global ones. */
async function tenantTables(): Promise<string[]> {
  const res = await rowsOf<{ name: string }>(
    t.services.db,
    sql`select distinct table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'tenant_id' order by 1`,
  );
  return res.map((r) => r.name).filter((n) => !globalTables.has(n));
}
async function digestOf(tenantId: string) {
  const out: Record<string, string> = {};
  for (const table of await tenantTables()) {
    const res = await rowsOf<{ d: string }>(
      dbOfTenant(t, tenantId),
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as d from "${table}" x where tenant_id = '${tenantId}'`,
      ),
    );
    out[table] = String(res[0].d);
  }
  const tenantRow = await rowsOf<{ d: string }>(
    t.services.db,
    sql.raw(`select md5(x::text) as d from tenant x where tenant_id = '${tenantId}'`),
  );
  out.tenant = String(tenantRow[0].d);
  return out;
}

type Route = TestApp['routeTable'][number];
/** Routes that end B's own session are left out: they touch nothing of A and would stop the run. */
const skip = (r: Route) => r.auth === 'none' || r.url.includes('/oauth/logout') || r.url.includes(':');

/**
 * Which of A's records a route's `id` names: the generated record of the bound resource that owns the route, else
 * (routes of no binding) by the path segment after the service.
 */
function idFor(url: string): string {
  const owner = ownerOf(url);
  if (owner && generated[owner.def.code]) return generated[owner.def.code];
  const seg = url.split('/')[3] ?? '';
  const map: Record<string, string> = {
    dept: ids.dept,
    post: ids.post,
    role: ids.role,
    topmenu: ids.topmenu,
    'data-scope': ids.dataScope,
    'api-scope': ids.apiScope,
    'dict-biz': ids.dictChild,
    menu: ids.role,
    tenant: ids.tenantRow,
    param: ids.user,
    dict: ids.user,
    client: ids.user,
    model: ids.flowModel,
    // The log viewers (docs/server.md "Log viewers"): one of A's audit rows and one of its uploaded error-log entries.
    audit: ids.audit,
    error: ids.errorLog,
  };
  return url.startsWith('/api/blade-user/') ? ids.user : (map[seg] ?? ids.user);
}

function requestFor(r: Route) {
  const id = idFor(r.url);
  const query = new URLSearchParams({
    id,
    ids: id,
    userIds: ids.user,
    roleIds: ids.role,
    topMenuIds: ids.topmenu,
    roleId: ids.role,
    parentId: ids.dept,
    deptId: ids.dept,
    tenantId: '710001',
    code: 'alpha_dict',
    domain: 'alpha.example',
    // The workflow's ids (docs/workflow.md): A's model, definition, deployment, instance and task.
    modelId: ids.flowModel,
    processId: ids.flowDefinition,
    deploymentIds: ids.flowDeployment,
    processInstanceId: ids.flowInstance,
    taskId: ids.flowTask,
    state: 'suspend',
    cascade: 'true',
    businessId: ids.leave,
  });
  const body = {
    id,
    tenantId: '710001',
    userId: ids.user,
    userIds: [ids.user],
    roleIds: [ids.role],
    topMenuIds: [ids.topmenu],
    menuIds: [],
    dataScopeIds: [ids.dataScope],
    apiScopeIds: [ids.apiScope],
    deptId: ids.dept,
    postId: ids.post,
    parentId: ids.dept,
    // Valid values for every module's required fields, so the id check is what answers.
    deptName: 'B 改名',
    postCode: 'bx',
    postName: 'B',
    category: 1,
    roleName: 'B',
    roleAlias: 'b_alias',
    code: 'bcode',
    name: 'B',
    dictValue: 'B',
    dictKey: 'bk',
    sort: 1,
    isSealed: 0,
    menuId: ids.platformMenu,
    resourceCode: 'user',
    scopeName: 'B',
    scopeType: 1,
    scopePath: '/api/blade-system/post/list',
    scopeMethod: 'GET',
    account: 'b_taker',
    realName: 'B',
    password: 'Taker#2026xx',
    userType: 1,
    userExt: '{}',
    oldPassword: 'x',
    newPassword: 'y',
    newPassword1: 'y',
    accountNumber: 5,
    modelKey: 'b_model',
    xml: LEAVE_XML,
    modelId: ids.flowModel,
    processInstanceId: ids.flowInstance,
    taskId: ids.flowTask,
    flag: 'ok',
    deleteReason: 'B',
  };
  return { url: `${r.url}?${query}`, body };
}

beforeAll(async () => {
  t = await createTestApp({ datasourcePrivateNetworks: MOVE_NETWORKS });
  platform = (await loginToken(t)).access;
  A = await provisionedTenant(t, platform, '710001');
  B = await provisionedTenant(t, platform, '710002');
  const a = client(t, A.token);
  const data = async (url: string, body: object) => {
    const res = await a.post(url, body);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
    return res.json().data as { id: string };
  };
  const menus = await rowsOf<{ id: string }>(
    t.services.db,
    sql`select id from menu where code = 'user' and tenant_id = '000000'`,
  );
  ids.platformMenu = String(menus[0].id);
  const root = (await a.get('/api/blade-system/dept/tree')).json().data[0];
  ids.dept = (await data('/api/blade-system/dept/submit', { deptName: `${MARK}部门`, parentId: root.id })).id;
  ids.post = (
    await data('/api/blade-system/post/submit', { category: 1, postCode: 'alpha', postName: `${MARK}岗位` })
  ).id;
  ids.role = (await data('/api/blade-system/role/submit', { roleName: `${MARK}角色`, roleAlias: 'alpha_role' })).id;
  ids.topmenu = (await data('/api/blade-system/topmenu/submit', { code: 'alpha_top', name: `${MARK}顶部` })).id;
  ids.dataScope = (
    await data('/api/blade-system/data-scope/submit', {
      menuId: ids.platformMenu,
      resourceCode: 'user',
      scopeName: `${MARK}数据`,
      scopeType: 2,
    })
  ).id;
  ids.apiScope = (
    await data('/api/blade-system/api-scope/submit', {
      menuId: ids.platformMenu,
      resourceCode: 'user',
      scopeName: `${MARK}接口`,
      scopePath: '/api/blade-user/*',
    })
  ).id;
  const dictParent = await data('/api/blade-system/dict-biz/submit', {
    code: 'alpha_dict',
    dictValue: `${MARK}字典`,
    sort: 1,
    isSealed: 0,
  });
  ids.dictParent = dictParent.id;
  ids.dictChild = (
    await data('/api/blade-system/dict-biz/submit', {
      parentId: dictParent.id,
      code: 'alpha_dict',
      dictKey: 'k',
      dictValue: `${MARK}项`,
      sort: 1,
      isSealed: 0,
    })
  ).id;
  ids.user = (
    await data('/api/blade-user/submit', {
      account: 'alpha_user',
      realName: 'ALPHA',
      name: MARK,
      password: 'Alpha#2026xx',
      deptId: ids.dept,
      postId: ids.post,
      roleIds: [ids.role],
    })
  ).id;
  await data('/api/blade-system/role/grant', {
    roleIds: [ids.role],
    menuIds: [ids.platformMenu],
    dataScopeIds: [ids.dataScope],
    apiScopeIds: [ids.apiScope],
  });
  // A's workflow: a model deployed, an instance started by A's user waiting at A's user (docs/workflow.md).
  ids.flowModel = (
    await data(flowApi.modelSubmit.path, { modelKey: 'alpha_leave', name: `${MARK}流程`, xml: LEAVE_XML })
  ).id;
  const deployed = (await a.post(flowApi.modelDeploy.path, { modelId: ids.flowModel })).json().data as {
    deploymentId: string;
    definitions: { id: string }[];
  };
  ids.flowDeployment = deployed.deploymentId;
  ids.flowDefinition = deployed.definitions[0].id;
  const aUser = { tenantId: '710001', userId: ids.user, roleIds: [ids.role] };
  const started = await startInstance(t.services, aUser, {
    definitionId: ids.flowDefinition,
    variables: { taskUser: ids.user },
  });
  ids.flowInstance = started.instanceId;
  ids.flowTask = started.tasks[0].id;
  ids.tenantRow = A.tenantRowId;
  // A leave request of A (its process seeded in every tenant), approved by A's user.
  const [leaveDef] = await rowsOf<{ id: string }>(
    t.services.db,
    sql`select id from flow_definition where tenant_id = '710001' and def_key = 'leave'`,
  );
  ids.leave = (
    await data(flowApi.leaveStart.path, {
      processDefinitionId: String(leaveDef.id),
      category: 1,
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-01 18:00:00',
      reason: `${MARK}请假`,
      taskUser: ids.user,
    })
  ).id;
  // A's logs: an uploaded error-log entry, and an audit row of A's writes (the dept above carries the mark).
  expect((await a.post('/api/blade-log/error-logs', [{ type: 'error', message: `${MARK}错误` }])).statusCode).toBe(200);
  const [errorRow] = await rowsOf<{ id: string }>(
    t.services.db,
    sql`select id from error_log where tenant_id = '710001'`,
  );
  ids.errorLog = String(errorRow.id);
  const [auditRow] = await rowsOf<{ id: string }>(
    t.services.db,
    sql`select id from audit_log where tenant_id = '710001' and entity = 'dept' and entity_id = ${ids.dept}`,
  );
  ids.audit = String(auditRow.id);
  // One record of every bound tenant resource, made from its definition (or its fixture).
  for (const b of tenantBindings()) generated[b.def.code] = await sampleRecord(t, b, A.token, '710001');
});
afterAll(async () => {
  await t?.close();
  for (const d of targets) await d.drop();
});

describe.each(MODES)('tenant isolation matrix (generated from the route table), $name', (mode) => {
  beforeAll(async () => {
    if (moved && moved !== mode.moved) {
      await moveBack(t, platform, moved);
      moved = undefined;
    }
    if (mode.moved && moved !== mode.moved) {
      targets.push(await moveTenant(t, platform, mode.moved));
      moved = mode.moved;
    }
    // The moved tenant's rows are on its database, and its user's session still answers (read there).
    const routed = (id: string) => dbOfTenant(t, id) !== t.services.db;
    expect([routed('710001'), routed('710002')]).toEqual([mode.moved === '710001', mode.moved === '710002']);
    for (const [id, who] of [
      ['710001', A],
      ['710002', B],
    ] as const) {
      const res = await client(t, who.token).get('/api/blade-user/page');
      expect([id, res.statusCode]).toEqual([id, 200]);
    }
  });

  it('covers the system routes', () => {
    const urls = t.routeTable.filter((r) => !skip(r)).map((r) => r.url);
    for (const must of [
      '/api/blade-user/page',
      '/api/blade-system/role/grant',
      '/api/blade-system/dept/lazy-tree',
      '/api/blade-system/dict-biz/child-list',
      '/api/blade-system/menu/role-tree-keys',
    ]) {
      expect(urls).toContain(must);
    }
  });

  it('tenant B reaches nothing of tenant A through any route, ids or forged tenant id', async () => {
    // Every bound tenant resource has a live record of A before the probes, so no probe names an empty table.
    const empty: string[] = [];
    for (const b of tenantBindings()) {
      const table = getTableConfig(b.table).name;
      const res = await rowsOf<{ n: number }>(
        dbOfTenant(t, '710001'),
        sql.raw(`select count(*)::int as n from "${table}" where tenant_id = '710001' and is_deleted = 0`),
      );
      if (!(res[0].n >= 1)) empty.push(b.def.code);
    }
    expect(tenantBindings().length).toBeGreaterThan(10);
    expect(empty).toEqual([]);
    expect(Object.keys(generated).sort()).toEqual(
      tenantBindings()
        .map((b) => b.def.code)
        .sort(),
    );

    const before = await digestOf('710001');
    const secrets = [...Object.values(ids).filter((v) => v !== ids.platformMenu), ...Object.values(generated)];
    const leaks: string[] = [];
    for (const r of t.routeTable.filter((x) => !skip(x))) {
      const { url, body } = requestFor(r);
      const res = await t.app.inject({
        method: r.method as 'GET' | 'POST',
        url,
        headers: { ...clientHeaders(B.token), 'tenant-id': '710001' },
        ...(r.method === 'POST' ? { payload: body } : {}),
      });
      const text = res.body;
      if (text.includes(MARK) || text.includes('alpha_') || secrets.some((s) => text.includes(`"${s}"`)))
        leaks.push(`${r.method} ${r.url} → ${res.statusCode} ${text.slice(0, 200)}`);
      expect([r.method, r.url, res.statusCode < 500]).toEqual([r.method, r.url, true]);
      // The CRUD calls on A's ids are 404 exactly (or 403 where B lacks the platform role).
      // CRUD routes of bound resources are proven 404 with valid bodies by the conformance suite.
      const bound =
        [...bindings().values()].some((b) => r.url.startsWith(`${b.def.base}/`)) &&
        /\/(detail|remove|submit)$/.test(r.url);
      if (
        !bound &&
        /\/(detail|remove|submit|update|reset-password|grant|approve|unlock|update-platform|platform-detail|role-tree-keys|top-tree-keys|tree-by-id|setting)$/.test(
          r.url,
        )
      ) {
        expect([r.method, r.url, [403, 404].includes(res.statusCode)]).toEqual([r.method, r.url, true]);
      }
    }
    expect(leaks).toEqual([]);
    expect(await digestOf('710001')).toEqual(before);
  });

  it("B's list totals never count A's rows", async () => {
    const b = client(t, B.token);
    const lists = t.routeTable.filter((r) => r.method === 'GET' && /\/(list|page|parent-list|menu-list)$/.test(r.url));
    expect(lists.length).toBeGreaterThan(8);
    for (const r of lists) {
      const res = await b.get(`${r.url}?size=1000`);
      if (res.statusCode !== 200) continue; // platform-only lists: 403 for B
      const text = res.body;
      expect([r.url, text.includes(MARK)]).toEqual([r.url, false]);
      const page = res.json().data as { total?: number; records?: unknown[] };
      // A global resource (regions) holds no tenant's rows: its total counts the one shared set, which pages.
      const shared = [...bindings().values()].some(
        (b) => b.def.scope === 'global' && r.url.startsWith(`${b.def.base}/`),
      );
      if (typeof page?.total === 'number' && !shared)
        expect([r.url, page.total]).toEqual([r.url, page.records!.length]);
    }
    // And direct: B's user page counts B's users only.
    const mine = await rowsOf<{ n: number }>(
      dbOfTenant(t, '710002'),
      sql`select count(*)::int as n from "user" where tenant_id = '710002' and is_deleted = 0`,
    );
    expect((await b.get('/api/blade-user/page')).json().data.total).toBe(mine[0].n);
  });

  it('references to A records inside B writes are 404 and change nothing', async () => {
    const b = client(t, B.token);
    const cases: [string, object][] = [
      ['/api/blade-user/submit', { account: 'b_ref1', realName: 'B', password: 'Taker#2026xx', roleIds: [ids.role] }],
      ['/api/blade-user/submit', { account: 'b_ref2', realName: 'B', password: 'Taker#2026xx', deptId: ids.dept }],
      ['/api/blade-user/submit', { account: 'b_ref3', realName: 'B', password: 'Taker#2026xx', postId: ids.post }],
      ['/api/blade-system/dept/submit', { deptName: 'B', parentId: ids.dept }],
      [
        '/api/blade-system/dict-biz/submit',
        { parentId: ids.dictParent, code: 'x', dictKey: 'k2', dictValue: 'v', sort: 1, isSealed: 0 },
      ],
    ];
    for (const [url, body] of cases) {
      const res = await b.post(url, body);
      expect([url, res.statusCode]).toEqual([url, res.statusCode === 404 ? 404 : 400]);
      expect(res.statusCode).not.toBe(200);
    }
    const bUsers = (await b.get('/api/blade-user/page?account=b_ref')).json().data.total;
    expect(bUsers).toBe(0);
  });
});

const clientHeaders = (token: string) => ({
  'blade-auth': `bearer ${token}`,
  authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
});
