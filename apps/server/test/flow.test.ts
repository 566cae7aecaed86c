// The workflow's routes end to end (docs/workflow.md): models saved, checked and deployed; files uploaded; the
// user's lists; claims and completes with their refusals; tracking; suspension; deployments deleted with cascade; and
// another tenant's ids answered 404 on every call that takes one. The engine's own rules are in flow-engine.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { flowApi as api } from '@atrium/contract';
import { newId } from '../src/db/ids.ts';
import { dictBiz, role, userRole } from '../src/db/schema/index.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { seedFlowCategories, startInstance } from '../src/modules/flow/index.ts';
import { bearer, client, createTestApp, loginToken, tenantUser, type TestApp } from './harness.ts';
import { LEAVE_XML, scriptXml } from './support/flow-fixture.ts';

let t: TestApp;
type Who = { token: string; userId: string; roleIds: string[]; tenantId: string };
const people: Record<string, Who> = {};

const ADMIN_CODES = [
  ...['model', 'model_add', 'model_edit', 'model_delete', 'model_deploy'],
  ...['deploy', 'deploy_state', 'deploy_upload', 'deploy_delete', 'follow', 'follow_delete'],
];
const WORK = ['work_start', 'work_send', 'work_done', 'work_todo', 'work_todo_handle'];
const HR = ['work_claim', 'work_claim_sign', 'work_todo', 'work_todo_handle', 'work_done'];

async function person(tenantId: string, account: string, codes: string[], hr = false): Promise<Who> {
  let token = await tenantUser(t, tenantId, account, codes);
  const userId = ((await client(t, token).get('/api/blade-user/info')).json().data as { id: string }).id;
  if (hr) {
    // The `hr` role (the HR step's candidate group) of the tenant, given to this user too.
    const db = t.services.db;
    let [hrRole] = await db
      .select({ id: role.id })
      .from(role)
      .where(and(eq(role.tenantId, tenantId), eq(role.roleAlias, 'hr'), eq(role.isDeleted, 0)));
    if (!hrRole) {
      hrRole = { id: newId() };
      await db.insert(role).values({ id: hrRole.id, tenantId, roleName: 'HR', roleAlias: 'hr' });
    }
    await db.insert(userRole).values({ userId, roleId: hrRole.id, tenantId });
    t.services.cache.clearAll();
    token = (await loginToken(t, { tenantId, username: account, password: 'Tenant#2026x' })).access;
  }
  const info = (await client(t, token).get('/api/blade-auth/oauth/user-info')).json().data as { roleId: string };
  return { token, userId, roleIds: info.roleId.split(','), tenantId };
}

const as = (who: Who, lang?: 'en') => client(t, who.token, lang);
const boundary = 'flowTestBoundary';
type Part = { name: string; value: string } | { name: string; filename: string; body: string | Buffer };
function multipart(parts: Part[]) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'filename' in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: application/xml\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`;
    chunks.push(Buffer.from(head), Buffer.from('filename' in p ? p.body : p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
const upload = (who: Who, parts: Part[], lang?: 'en') =>
  t.app.inject({
    method: 'POST',
    url: api.deployUpload.path,
    headers: {
      ...bearer(who.token),
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(lang ? { 'accept-language': 'en' } : {}),
    },
    payload: multipart(parts),
  });

type Page<T> = { records: T[]; total: number };
const data = <T>(res: { statusCode: number; body: string; json: () => unknown }): T => {
  expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
  return (res.json() as { data: T }).data;
};
const start = (who: Who, definitionId: string, variables: Record<string, unknown>) =>
  startInstance(t.services, who, { definitionId, variables });

let definitionId = '';
let modelId = '';

beforeAll(async () => {
  t = await createTestApp();
  const A = '720001';
  people.admin = await person(A, 'f_admin', ADMIN_CODES);
  people.applicant = await person(A, 'f_appl', WORK);
  people.manager = await person(A, 'f_mgr', WORK);
  people.hr1 = await person(A, 'f_hr1', HR, true);
  people.hr2 = await person(A, 'f_hr2', HR, true);
  people.outsider = await person(A, 'f_out', [...WORK, 'work_claim', 'work_claim_sign']);
  // The process categories with their routes (docs/workflow.md "Flow routes"), and one whose remark is no route.
  await withTenant(t.services.db, A, async (tx) => {
    const now = new Date();
    await seedFlowCategories(tx, A, { createTime: now, updateTime: now });
    const [parent] = await tx
      .select({ id: dictBiz.id })
      .from(dictBiz)
      .where(and(eq(dictBiz.tenantId, A), eq(dictBiz.code, 'flow'), eq(dictBiz.parentId, '0')));
    await tx.insert(dictBiz).values({
      id: newId(),
      tenantId: A,
      parentId: parent.id,
      code: 'flow',
      dictKey: '9',
      dictValue: '钓鱼',
      remark: 'javascript:alert(1)',
    });
  });
  people.other = await person('720002', 'f_other', [...new Set([...ADMIN_CODES, ...WORK, ...HR])]);
}, 120_000);
afterAll(async () => t?.close());

describe('models', () => {
  it('are saved only when the diagram passes the checks, and a stale save is a 409', async () => {
    const a = as(people.admin);
    const bad = await a.post(api.modelSubmit.path, { modelKey: 'evil', name: 'Evil', xml: scriptXml('/tmp/x') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('write');
    const saved = data<{ id: string; version: number }>(
      await a.post(api.modelSubmit.path, { modelKey: 'leave_t', name: '请假测试', category: '1', xml: LEAVE_XML }),
    );
    modelId = saved.id;
    const dup = await a.post(api.modelSubmit.path, { modelKey: 'leave_t', name: 'again', xml: LEAVE_XML });
    expect([dup.statusCode, dup.json().msg]).toEqual([400, '模型标识已存在']);
    const detail = data<{ xml: string; version: number; deployedVersion: number | null }>(
      await a.get(`${api.modelDetail.path}?id=${modelId}`),
    );
    expect(detail.xml).toContain('Manager approval');
    expect(detail.deployedVersion).toBeNull();
    const edit = { id: modelId, modelKey: 'leave_t', name: '请假测试 2', category: '1', xml: LEAVE_XML };
    data(await a.post(api.modelSubmit.path, { ...edit, version: detail.version }));
    const stale = await as(people.admin, 'en').post(api.modelSubmit.path, { ...edit, version: detail.version });
    expect([stale.statusCode, stale.json().msg]).toEqual([
      409,
      'The model was changed by someone else; reload it before saving',
    ]);
    const page = data<Page<{ modelKey: string; name: string }>>(await a.get(`${api.modelList.path}?modelKey=leave`));
    expect(page.records.map((r) => [r.modelKey, r.name])).toEqual([['leave_t', '请假测试 2']]);
  });

  it('deploy as new versions; the start list offers the latest active one', async () => {
    const a = as(people.admin);
    const one = data<{ definitions: { id: string; version: number; key: string }[] }>(
      await a.post(api.modelDeploy.path, { modelId }),
    );
    expect(one.definitions.map((d) => [d.key, d.version])).toEqual([['leave_t', 1]]);
    const two = data<{ definitions: { id: string; version: number }[] }>(
      await a.post(api.modelDeploy.path, { modelId }),
    );
    expect(two.definitions[0].version).toBe(2);
    definitionId = two.definitions[0].id;
    const versions = data<Page<{ version: number }>>(await a.get(`${api.managerList.path}?key=leave_t&ascs=version`));
    expect(versions.records.map((r) => r.version)).toEqual([1, 2]);
    const startable = data<Page<{ id: string; key: string; formRoute: string | null }>>(
      await as(people.applicant).get(api.startList.path),
    );
    // Category 1's screens come from the business dictionary `flow` (docs/workflow.md "Flow routes").
    expect(startable.records.filter((r) => r.key === 'leave_t').map((r) => [r.id, r.formRoute])).toEqual([
      [definitionId, '/work/process/leave/form'],
    ]);
    const detail = data<{ deployedVersion: number }>(await a.get(`${api.modelDetail.path}?id=${modelId}`));
    expect(detail.deployedVersion).toBe(2);
  });

  it('another tenant cannot read, save, deploy or remove them (404)', async () => {
    const o = as(people.other);
    expect((await o.get(`${api.modelDetail.path}?id=${modelId}`)).statusCode).toBe(404);
    const edit = { id: modelId, modelKey: 'leave_t', name: 'taken', xml: LEAVE_XML };
    expect((await o.post(api.modelSubmit.path, edit)).statusCode).toBe(404);
    expect((await o.post(api.modelDeploy.path, { modelId })).statusCode).toBe(404);
    expect((await o.post(`${api.modelRemove.path}?ids=${modelId}`)).statusCode).toBe(404);
    const theirs = data<Page<unknown>>(await o.get(api.modelList.path));
    expect(theirs.total).toBe(0);
    // Only the platform deploys for other tenants.
    const cross = await as(people.admin).post(api.modelDeploy.path, { modelId, tenantIds: '720002' });
    expect(cross.statusCode).toBe(403);
  });
  it('the platform deploys for the tenants it names, each getting its own copy; an unknown tenant is a 400', async () => {
    const platform = client(t, (await loginToken(t)).access);
    const xml = LEAVE_XML.replace('id="leave"', 'id="shared"');
    const model = data<{ id: string }>(
      await platform.post(api.modelSubmit.path, { modelKey: 'shared', name: '共享流程', xml }),
    );
    const unknown = await platform.post(api.modelDeploy.path, { modelId: model.id, tenantIds: '720001,799999' });
    expect([unknown.statusCode, unknown.json().msg]).toEqual([400, '租户不存在：799999']);
    const out = data<{ definitions: unknown[] }>(
      await platform.post(api.modelDeploy.path, { modelId: model.id, tenantIds: ['720001', '720002'] }),
    );
    // The platform itself was not named: it got no copy.
    expect(out.definitions).toEqual([]);
    for (const who of [people.admin, people.other]) {
      const page = data<Page<{ key: string; tenantId: string; version: number }>>(
        await as(who).get(`${api.managerList.path}?key=shared`),
      );
      expect(page.records.map((r) => [r.key, r.tenantId, r.version])).toEqual([['shared', who.tenantId, 1]]);
    }
  });

  it('are removed without their deployed versions', async () => {
    const a = as(people.admin);
    const done = await a.post(`${api.modelRemove.path}?ids=${modelId}`);
    expect([done.statusCode, done.json().msg]).toEqual([200, '删除成功']);
    expect((await a.get(`${api.modelDetail.path}?id=${modelId}`)).statusCode).toBe(404);
    expect((await a.post(`${api.modelRemove.path}?ids=${modelId}`)).statusCode).toBe(404);
    const versions = data<Page<{ version: number }>>(await a.get(`${api.managerList.path}?key=leave_t`));
    expect(versions.total).toBe(2);
  });
});

describe('uploads', () => {
  const count = async () => data<Page<unknown>>(await as(people.admin).get(api.managerList.path)).total;

  it('deploy .bpmn and .bpmn20.xml files, one deployment each', async () => {
    const before = await count();
    const xml2 = LEAVE_XML.replace('id="leave"', 'id="leave_upload2"');
    const out = data<{
      deploymentIds: string[];
      definitions: { key: string; category: string; resourceName: string }[];
    }>(
      await upload(people.admin, [
        { name: 'category', value: '1' },
        { name: 'files', filename: 'leave_upload.bpmn', body: LEAVE_XML.replace('id="leave"', 'id="leave_upload"') },
        { name: 'files', filename: 'second.bpmn20.xml', body: xml2 },
      ]),
    );
    expect(out.deploymentIds).toHaveLength(2);
    expect(out.definitions.map((d) => [d.key, d.category, d.resourceName])).toEqual([
      ['leave_upload', '1', 'leave_upload.bpmn'],
      ['leave_upload2', '1', 'second.bpmn20.xml'],
    ]);
    expect(await count()).toBe(before + 2);
    // A category whose remark is not a route inside the console has no screens.
    const odd = data<{ definitions: { formRoute: string | null; category: string }[] }>(
      await upload(people.admin, [
        { name: 'category', value: '9' },
        { name: 'files', filename: 'odd.bpmn', body: LEAVE_XML.replace('id="leave"', 'id="odd"') },
      ]),
    );
    expect(odd.definitions.map((d) => [d.category, d.formRoute])).toEqual([['9', null]]);
  });

  it('refuse bad files with a message naming the file and the problem, deploying nothing', async () => {
    const before = await count();
    const good = { name: 'files', filename: 'good.bpmn', body: LEAVE_XML.replace('id="leave"', 'id="good"') };
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL">&lol2;</bpmn:definitions>`;
    const noStart = LEAVE_XML.replace('<bpmn:startEvent id="start" name="Apply" />', '').replace(
      '<bpmn:sequenceFlow id="toManager" sourceRef="start" targetRef="manager" />',
      '',
    );
    const cases: [string, Part, RegExp][] = [
      ['malformed', { name: 'files', filename: 'broken.bpmn', body: '<bpmn:definitions><oops' }, /broken\.bpmn/],
      [
        'not BPMN',
        { name: 'files', filename: 'pic.bpmn', body: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
        /pic\.bpmn/,
      ],
      ['a bomb', { name: 'files', filename: 'bomb.bpmn', body: bomb }, /bomb\.bpmn/],
      ['no start event', { name: 'files', filename: 'nostart.bpmn', body: noStart }, /nostart\.bpmn/],
      ['a script', { name: 'files', filename: 'evil.bpmn', body: scriptXml('/tmp/never') }, /evil\.bpmn/],
      ['a wrong type', { name: 'files', filename: 'notes.txt', body: 'hello' }, /notes\.txt/],
      [
        'too large',
        { name: 'files', filename: 'big.bpmn', body: Buffer.alloc(1024 * 1024 + 10, 0x20) },
        /big\.bpmn|1 MB/,
      ],
    ];
    for (const [what, part, named] of cases) {
      const res = await upload(people.admin, [good, part]);
      expect([what, res.statusCode]).toEqual([what, 400]);
      expect([what, named.test(res.json().msg)]).toEqual([what, true]);
    }
    const none = await upload(people.admin, [{ name: 'category', value: '1' }]);
    expect([none.statusCode, none.json().msg]).toEqual([400, '请上传 .bpmn 或 .bpmn20.xml 流程文件']);
    const en = await upload(people.admin, [{ name: 'files', filename: 'notes.txt', body: 'x' }], 'en');
    expect(en.json().msg).toBe('The file "notes.txt" is not a .bpmn or .bpmn20.xml file');
    const unknown = await upload(people.admin, [good, { name: 'owner', value: 'me' }]);
    expect([unknown.statusCode, unknown.json().msg]).toEqual([400, '不支持的表单字段：owner']);
    expect(await count()).toBe(before);
  });
});

describe('my work', () => {
  let instanceId = '';
  const todo = async (who: Who) =>
    data<
      Page<{
        taskId: string;
        taskName: string;
        processInstanceId: string;
        assignee: string | null;
        formRoute: string | null;
      }>
    >(await as(who).get(api.todoList.path)).records;
  const complete = (who: Who, taskId: string, flag: 'ok' | 'reject', comment?: string, lang?: 'en') =>
    as(who, lang).post(api.completeTask.path, { taskId, processInstanceId: instanceId, flag, comment });

  it('go from the manager to the applicant and back, to HR (one claimer wins) and to the end', async () => {
    const { applicant, manager, hr1, hr2, outsider } = people;
    instanceId = (await start(applicant, definitionId, { taskUser: manager.userId })).instanceId;
    const sent = data<Page<{ processInstanceId: string; status: string; currentSteps: string[]; detailRoute: string }>>(
      await as(applicant).get(api.sendList.path),
    );
    expect(sent.records.map((r) => [r.processInstanceId, r.status, r.currentSteps, r.detailRoute])).toEqual([
      [instanceId, 'running', ['Manager approval'], '/work/process/leave/detail'],
    ]);
    expect(data(await as(manager).get(api.waitingCount.path))).toEqual({ todo: 1, claim: 0 });
    let [task] = await todo(manager);
    expect([task.taskName, task.processInstanceId, task.assignee]).toEqual([
      'Manager approval',
      instanceId,
      manager.userId,
    ]);

    // Only the assignee completes; the manager rejects with a comment.
    expect((await complete(outsider, task.taskId, 'ok')).statusCode).toBe(403);
    data(await complete(manager, task.taskId, 'reject', '日期不对'));
    expect((await complete(manager, task.taskId, 'ok')).statusCode).toBe(409);
    [task] = await todo(applicant);
    expect(task.taskName).toBe('Adjust the request');
    data(await complete(applicant, task.taskId, 'ok', '已调整'));
    [task] = await todo(manager);
    data(await complete(manager, task.taskId, 'ok', '同意'));

    // HR: claimable by holders of the role only; of two claimers one wins.
    expect(data<Page<unknown>>(await as(outsider).get(api.claimList.path)).total).toBe(0);
    const claimable = data<Page<{ taskId: string }>>(await as(hr1).get(api.claimList.path)).records;
    expect(claimable).toHaveLength(1);
    expect(data(await as(hr2).get(api.waitingCount.path))).toEqual({ todo: 0, claim: 1 });
    const hrTask = claimable[0].taskId;
    expect((await as(outsider).post(`${api.claimTask.path}?taskId=${hrTask}`)).statusCode).toBe(403);
    expect((await complete(hr1, hrTask, 'ok')).json().msg).toBe('请先签收该任务');
    const both = await Promise.all([
      as(hr1).post(`${api.claimTask.path}?taskId=${hrTask}`),
      as(hr2).post(`${api.claimTask.path}?taskId=${hrTask}`),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = both[0].statusCode === 200 ? hr1 : hr2;
    const loser = winner === hr1 ? hr2 : hr1;
    expect(both.find((r) => r.statusCode === 409)!.json().msg).toBe('任务已被他人签收');
    expect((both.find((r) => r.statusCode === 200)!.json().data as { assignee: string }).assignee).toBe(winner.userId);
    expect((await complete(loser, hrTask, 'ok', undefined, 'en')).json().msg).toBe(
      'Only the assignee of the task can complete it',
    );
    const twice = await Promise.all([complete(winner, hrTask, 'ok', '批准'), complete(winner, hrTask, 'ok', '批准')]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([200, 409]);

    const ended = data<Page<{ status: string; currentSteps: string[] }>>(await as(applicant).get(api.sendList.path));
    expect(ended.records.map((r) => [r.status, r.currentSteps])).toEqual([['ended', []]]);
    const done = data<Page<{ taskName: string; flag: string; comment: string }>>(
      await as(manager).get(`${api.doneList.path}?ascs=endTime`),
    );
    expect(done.records.map((r) => [r.taskName, r.flag, r.comment])).toEqual([
      ['Manager approval', 'reject', '日期不对'],
      ['Manager approval', 'ok', '同意'],
    ]);
  });

  it('show the history and the highlighted diagram to participants and trackers only', async () => {
    const history = data<{ historyActivityName: string; flag: string | null; comment: string | null }[]>(
      await as(people.applicant).get(`${api.historyFlowList.path}?processInstanceId=${instanceId}`),
    );
    const steps = history.filter((h) => h.flag).map((h) => [h.historyActivityName, h.flag, h.comment]);
    expect(steps).toEqual([
      ['Manager approval', 'reject', '日期不对'],
      ['Adjust the request', 'ok', '已调整'],
      ['Manager approval', 'ok', '同意'],
      ['HR approval', 'ok', '批准'],
    ]);
    const diagram = data<{ xml: string; done: string[]; current: string[] }>(
      await as(people.admin).get(`${api.diagram.path}?processInstanceId=${instanceId}`),
    );
    expect(diagram.current).toEqual([]);
    expect(diagram.done).toEqual(expect.arrayContaining(['start', 'manager', 'hr', 'end', 'toHr', 'back']));
    expect(diagram.done).not.toContain('cancelled');
    for (const who of [people.outsider, people.other]) {
      const res = await as(who).get(`${api.historyFlowList.path}?processInstanceId=${instanceId}`);
      expect([res.statusCode, res.json().msg]).toEqual([404, '流程实例不存在']);
      expect((await as(who).get(`${api.diagram.path}?processInstanceId=${instanceId}`)).statusCode).toBe(404);
    }
  });

  it('refuse another tenant every task and instance by id (404)', async () => {
    const id = (await start(people.applicant, definitionId, { taskUser: people.manager.userId })).instanceId;
    const [task] = (await todo(people.manager)).filter((x) => x.processInstanceId === id);
    const o = as(people.other);
    expect((await o.post(`${api.claimTask.path}?taskId=${task.taskId}`)).statusCode).toBe(404);
    const body = { taskId: task.taskId, processInstanceId: id, flag: 'ok' };
    expect((await o.post(api.completeTask.path, body)).statusCode).toBe(404);
    expect(
      (await o.post(api.deleteProcessInstance.path, { processInstanceId: id, deleteReason: 'x' })).statusCode,
    ).toBe(404);
    expect((await o.post(`${api.changeState.path}?processId=${definitionId}&state=suspend`)).statusCode).toBe(404);
    expect(data<Page<unknown>>(await o.get(api.followList.path)).total).toBe(0);
    // A task named with another instance of the same tenant is not found either.
    const wrong = { taskId: task.taskId, processInstanceId: instanceId, flag: 'ok' };
    expect((await as(people.manager).post(api.completeTask.path, wrong)).statusCode).toBe(404);
  });

  it('lists refuse an unknown filter or sort with a message naming it', async () => {
    const a = as(people.manager);
    for (const path of [api.todoList.path, api.sendList.path, api.managerList.path, api.modelList.path]) {
      const res = await as(people.other).get(`${path}?nope=1`);
      expect([path, res.statusCode]).toEqual([path, 400]);
      expect(res.json().msg).toContain('nope');
    }
    expect((await a.get(`${api.doneList.path}?descs=password`)).statusCode).toBe(400);
    expect((await as(people.admin).get(`${api.followList.path}?status=lost`)).statusCode).toBe(400);
  });
});

describe('suspension, tracking and deleting deployments', () => {
  it('a suspended process cannot be started nor handled; active again, it goes on', async () => {
    const { admin, applicant, manager } = people;
    const id = (await start(applicant, definitionId, { taskUser: manager.userId })).instanceId;
    const suspended = data<{ suspensionState: number }>(
      await as(admin).post(`${api.changeState.path}?processId=${definitionId}&state=suspend`),
    );
    expect(suspended.suspensionState).toBe(2);
    await expect(start(applicant, definitionId, { taskUser: manager.userId })).rejects.toMatchObject({ status: 409 });
    const task = data<Page<{ taskId: string; processInstanceId: string }>>(
      await as(manager).get(api.todoList.path),
    ).records.find((r) => r.processInstanceId === id)!;
    const res = await as(manager).post(api.completeTask.path, {
      taskId: task.taskId,
      processInstanceId: id,
      flag: 'ok',
    });
    expect([res.statusCode, res.json().msg]).toEqual([409, '流程已挂起，不能发起或办理，请先激活']);
    const startable = data<Page<{ id: string }>>(await as(applicant).get(api.startList.path));
    expect(startable.records.map((r) => r.id)).not.toContain(definitionId);
    data(await as(admin).post(`${api.changeState.path}?processId=${definitionId}&state=active`));
    data(await as(manager).post(api.completeTask.path, { taskId: task.taskId, processInstanceId: id, flag: 'ok' }));
  });

  it('completes racing a suspension: each one done before it or refused, nothing half', async () => {
    const { admin, applicant, manager } = people;
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++)
      ids.add((await start(applicant, definitionId, { taskUser: manager.userId })).instanceId);
    const tasks = data<Page<{ taskId: string; processInstanceId: string }>>(
      await as(manager).get(`${api.todoList.path}?size=100`),
    ).records.filter((r) => ids.has(r.processInstanceId));
    expect(tasks).toHaveLength(6);
    const completes = tasks.map((x) =>
      as(manager).post(api.completeTask.path, { taskId: x.taskId, processInstanceId: x.processInstanceId, flag: 'ok' }),
    );
    const suspend = as(admin).post(`${api.changeState.path}?processId=${definitionId}&state=suspend`);
    const [suspended, ...answers] = await Promise.all([suspend, ...completes]);
    expect(suspended.statusCode).toBe(200);
    const open = new Set(
      data<Page<{ taskId: string }>>(await as(manager).get(`${api.todoList.path}?size=100`)).records.map(
        (r) => r.taskId,
      ),
    );
    answers.forEach((res, i) => {
      if (res.statusCode === 200) expect(open.has(tasks[i].taskId)).toBe(false);
      else {
        expect([res.statusCode, res.json().msg]).toEqual([409, '流程已挂起，不能发起或办理，请先激活']);
        expect(open.has(tasks[i].taskId)).toBe(true);
      }
    });
    data(await as(admin).post(`${api.changeState.path}?processId=${definitionId}&state=active`));
  });

  it('tracking lists running instances and deletes one with a reason', async () => {
    const { admin, applicant, manager } = people;
    const id = (await start(applicant, definitionId, { taskUser: manager.userId })).instanceId;
    const running = data<Page<{ processInstanceId: string; currentSteps: string[]; startUserName: string }>>(
      await as(admin).get(api.followList.path),
    );
    const row = running.records.find((r) => r.processInstanceId === id)!;
    expect([row.currentSteps, row.startUserName]).toEqual([['Manager approval'], 'f_appl']);
    const empty = await as(admin).post(api.deleteProcessInstance.path, { processInstanceId: id, deleteReason: ' ' });
    expect([empty.statusCode, empty.json().msg]).toEqual([400, '请求参数错误: 请输入删除原因']);
    data(await as(admin).post(api.deleteProcessInstance.path, { processInstanceId: id, deleteReason: '重复申请' }));
    const mine = data<Page<{ processInstanceId: string; status: string; deleteReason: string }>>(
      await as(applicant).get(`${api.sendList.path}?status=deleted`),
    );
    expect(mine.records.map((r) => [r.processInstanceId, r.status, r.deleteReason])).toEqual([
      [id, 'deleted', '重复申请'],
    ]);
    expect(
      (await as(manager).get(api.todoList.path))
        .json()
        .data.records.map((r: { processInstanceId: string }) => r.processInstanceId),
    ).not.toContain(id);
  });

  it('deleting a deployment with running instances needs cascade and says how many it ends', async () => {
    const { admin, applicant, manager } = people;
    const defs = data<Page<{ id: string; deploymentId: string }>>(
      await as(admin).get(`${api.managerList.path}?key=leave_t`),
    ).records;
    const deploymentId = defs.find((d) => d.id === definitionId)!.deploymentId;
    const runningNow = data<Page<{ processDefinitionId: string }>>(
      await as(admin).get(`${api.followList.path}?size=100`),
    ).records.filter((r) => r.processDefinitionId === definitionId).length;
    await start(applicant, definitionId, { taskUser: manager.userId });
    const refused = await as(admin).post(`${api.deleteDeployment.path}?deploymentIds=${deploymentId}`);
    expect([refused.statusCode, refused.json().msg]).toEqual([
      409,
      `该部署下还有 ${runningNow + 1} 个运行中的流程实例；确认级联删除将一并结束这些实例`,
    ]);
    expect(
      (await as(people.other).post(`${api.deleteDeployment.path}?deploymentIds=${deploymentId}&cascade=true`))
        .statusCode,
    ).toBe(404);
    const done = data<{ deployments: number; instancesEnded: number }>(
      await as(admin).post(`${api.deleteDeployment.path}?deploymentIds=${deploymentId}&cascade=true`),
    );
    expect(done).toEqual({ deployments: 1, instancesEnded: runningNow + 1 });
    const left = data<Page<{ id: string }>>(await as(admin).get(`${api.managerList.path}?key=leave_t`)).records;
    expect(left.map((d) => d.id)).not.toContain(definitionId);
    const waiting = data<Page<{ processDefinitionId: string }>>(await as(manager).get(api.todoList.path)).records;
    expect(waiting.filter((r) => r.processDefinitionId === definitionId)).toEqual([]);
  });
});
