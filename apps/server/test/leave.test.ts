// Issue 26 (docs/workflow.md "The leave process"): the seeded leave process in a new tenant (role hr, the leave types,
// the deployed definition), a request filed with its instance, handled through reject, resubmit, pass, HR's claim
// and cancel — the request's row changing with each touch in the same transaction — and who may read it.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowApi } from '@atrium/contract';
import { newId } from '../src/db/ids.ts';
import { dictBiz, menu, role, roleMenu, tenant, user, userRole } from '../src/db/schema/index.ts';
import { claimTask, completeTask, deleteInstance } from '../src/modules/flow/engine/service.ts';
import { flowDefinition, flowInstance, flowTask, INSTANCE, TASK } from '../src/modules/flow/table.ts';
import { leaveDays, parseWallTime } from '../src/modules/leave/days.ts';
import { seedMissingLeave } from '../src/modules/leave/seed.ts';
import { startLeave } from '../src/modules/leave/service.ts';
import { LEAVE_STATUS, processLeave } from '../src/modules/leave/table.ts';
import { AppError, render } from '../src/platform/errors.ts';
import { hashPassword, md5Hex } from '../src/platform/password.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import type { AuthContext } from '../src/platform/tokens.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';

const A = '420001';
const B = '420002';
const PASSWORD = 'Leave#2026x';
const START = flowApi.leaveStart.path;
const DETAIL = flowApi.leaveDetail.path;

type Person = AuthContext & { token: string };
let t: TestApp;
let people: Record<'applicant' | 'manager' | 'hr1' | 'outsider' | 'adminA' | 'adminB' | 'userB', Person>;
let leaveDefA: string;

const inA = <T>(fn: Parameters<typeof withTenant<T>>[2], tenantId = A) => withTenant(t.services.db, tenantId, fn);
const roleId = async (tenantId: string, alias: string) =>
  (
    await inA(
      (tx) =>
        tx
          .select({ id: role.id })
          .from(role)
          .where(and(eq(role.tenantId, tenantId), eq(role.roleAlias, alias), eq(role.isDeleted, 0))),
      tenantId,
    )
  )[0]?.id;

/** A user of the tenant holding `roleIds`, signed in. */
async function person(tenantId: string, account: string, roleIds: string[]): Promise<Person> {
  const userId = newId();
  const hash = await hashPassword(md5Hex(PASSWORD));
  await inA(async (tx) => {
    await tx.insert(user).values({ id: userId, tenantId, account, password: hash, realName: account });
    if (roleIds.length) await tx.insert(userRole).values(roleIds.map((r) => ({ userId, roleId: r, tenantId })));
  }, tenantId);
  const token = (await loginToken(t, { tenantId, username: account, password: PASSWORD })).access;
  return {
    tenantId,
    userId,
    roleIds,
    account,
    deptId: null,
    clientId: 'saber',
    sid: 'test',
    token,
  };
}

/** The error a call ends with: status and both texts. */
async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof AppError)) throw new Error(`expected a refusal, got ${String(e)}`);
  return { status: e.status, zh: render(e.text, 'zh'), en: render(e.text, 'en') };
}

const form = (over: Record<string, unknown> = {}) => ({
  processDefinitionId: leaveDefA,
  category: 1,
  startTime: '2026-12-01 09:00:00',
  endTime: '2026-12-02 18:00:00',
  reason: 'Family matters',
  taskUser: people.manager.userId,
  ...over,
});
const leaveRow = (id: string) =>
  inA(async (tx) => (await tx.select().from(processLeave).where(eq(processLeave.id, id)))[0]);
const openTasks = (instanceId: string) =>
  inA((tx) =>
    tx
      .select()
      .from(flowTask)
      .where(and(eq(flowTask.instanceId, instanceId), eq(flowTask.status, TASK.open)))
      .orderBy(asc(flowTask.id)),
  );
const instance = (id: string) =>
  inA(async (tx) => (await tx.select().from(flowInstance).where(eq(flowInstance.id, id)))[0]);
const counts = () =>
  inA(async (tx) => ({
    leaves: (await tx.select({ id: processLeave.id }).from(processLeave)).length,
    instances: (await tx.select({ id: flowInstance.id }).from(flowInstance)).length,
  }));

/** Files a request as the applicant through the route; answers the record. */
async function file(over: Record<string, unknown> = {}) {
  const res = await client(t, people.applicant.token).post(START, form(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; processInstanceId: string; days: number; status: string };
}

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  const adminA = await provisionedTenant(t, platform, A);
  const adminB = await provisionedTenant(t, platform, B);
  // Staff: a role of tenant A holding the 我的事务 screens only (no 流程跟踪).
  const staffRole = newId();
  await inA(async (tx) => {
    await tx.insert(role).values({ id: staffRole, tenantId: A, roleName: 'staff', roleAlias: 'staff' });
    const work = await tx.select({ id: menu.id, code: menu.code }).from(menu).where(eq(menu.isDeleted, 0));
    const codes = work.filter((m) => m.code === 'work' || m.code.startsWith('work_'));
    await tx.insert(roleMenu).values(codes.map((m) => ({ roleId: staffRole, menuId: m.id, tenantId: A })));
  });
  t.services.cache.clearAll();
  const hrA = (await roleId(A, 'hr'))!;
  const adminRoleA = (await roleId(A, 'administrator'))!;
  const adminRoleB = (await roleId(B, 'administrator'))!;
  const adminUser = async (tenantId: string, token: string, roleIdOf: string): Promise<Person> => {
    const [u] = await inA(
      (tx) =>
        tx
          .select({ id: user.id })
          .from(user)
          .where(and(eq(user.tenantId, tenantId), eq(user.account, 'admin'))),
      tenantId,
    );
    return {
      tenantId,
      userId: u.id,
      roleIds: [roleIdOf],
      account: 'admin',
      deptId: null,
      clientId: 'saber',
      sid: 't',
      token,
    };
  };
  people = {
    applicant: await person(A, 'applicant', [staffRole]),
    manager: await person(A, 'manager', [staffRole]),
    hr1: await person(A, 'hr1', [hrA]),
    outsider: await person(A, 'outsider', [staffRole]),
    adminA: await adminUser(A, adminA.token, adminRoleA),
    adminB: await adminUser(B, adminB.token, adminRoleB),
    userB: await person(B, 'userb', []),
  };
  const [def] = await inA((tx) =>
    tx
      .select({ id: flowDefinition.id })
      .from(flowDefinition)
      .where(and(eq(flowDefinition.tenantId, A), eq(flowDefinition.defKey, 'leave'))),
  );
  leaveDefA = def.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the days of a leave (half days of the calendar)', () => {
  const days = (a: string, b: string) => leaveDays(parseWallTime(a, false)!, parseWallTime(b, true)!);
  it('count each morning (before 12:00) and afternoon the leave touches', () => {
    expect(days('2026-12-01 09:00:00', '2026-12-01 12:00:00')).toBe(0.5);
    expect(days('2026-12-01 13:30', '2026-12-01 18:00')).toBe(0.5);
    expect(days('2026-12-01 09:00', '2026-12-01 18:00')).toBe(1);
    expect(days('2026-11-30 09:00', '2026-12-02 18:00')).toBe(3);
    expect(days('2026-11-30 14:00', '2026-12-01 11:00')).toBe(1);
    expect(days('2026-12-01', '2026-12-01')).toBe(1);
    expect(days('2026-12-01 00:00:00', '2026-12-02 00:00:00')).toBe(1);
    // Weekends count: Friday to Monday is four days.
    expect(days('2026-12-04', '2026-12-07')).toBe(4);
  });
  it('read only real times', () => {
    for (const bad of ['2026-02-30', '2026-12-01 24:00', '2026/12/01', '01-12-2026 09:00', '', '2026-12-01 9:00'])
      expect(parseWallTime(bad, false), bad).toBeNull();
    expect(parseWallTime('2026-12-01T09:30', false)?.text).toBe('2026-12-01 09:30:00');
  });
});

describe('the leave process (docs/workflow.md "The leave process")', () => {
  it('a new tenant has the role hr with the 我的事务 screens, the leave types and the leave process deployed', async () => {
    const hr = (await roleId(A, 'hr'))!;
    expect(hr).toBeTruthy();
    const granted = await inA((tx) =>
      tx
        .select({ code: menu.code })
        .from(roleMenu)
        .innerJoin(menu, eq(menu.id, roleMenu.menuId))
        .where(eq(roleMenu.roleId, hr)),
    );
    const codes = granted.map((g) => g.code);
    expect(codes).toEqual(expect.arrayContaining(['work', 'work_start', 'work_claim', 'work_claim_sign', 'work_todo']));
    expect(codes.every((c) => c === 'work' || c.startsWith('work_'))).toBe(true);
    const types = await inA((tx) =>
      tx
        .select({ key: dictBiz.dictKey, zh: dictBiz.dictValue, en: dictBiz.dictValueEn })
        .from(dictBiz)
        .where(and(eq(dictBiz.tenantId, A), eq(dictBiz.code, 'leave_type')))
        .orderBy(asc(dictBiz.sort)),
    );
    expect(types).toEqual(
      expect.arrayContaining([
        { key: '-1', zh: '请假类型', en: 'Leave type' },
        { key: '1', zh: '事假', en: 'Personal leave' },
        { key: '2', zh: '病假', en: 'Sick leave' },
        { key: '3', zh: '年假', en: 'Annual leave' },
      ]),
    );
    const defs = await inA((tx) => tx.select().from(flowDefinition).where(eq(flowDefinition.defKey, 'leave')));
    expect(defs).toHaveLength(1);
    expect(defs[0]).toMatchObject({ name: '请假流程', category: '1', defVersion: 1, suspended: 0 });
    expect(defs[0].userTasks.map((u) => [u.id, u.assignee, u.candidateGroups])).toEqual([
      ['approve', '${taskUser}', null],
      ['hrApprove', null, 'hr'],
      ['adjust', '${applyUser}', null],
    ]);
    // The diagram has a shape per element, for the viewer.
    expect(defs[0].xml).toContain('bpmndi:BPMNShape');
  });

  it('a start files the request and its instance; the approver gets the task; the days are computed', async () => {
    const r = await file();
    expect(r).toMatchObject({ days: 2, status: 'running', category: 1, startTime: '2026-12-01 09:00:00' });
    const row = await leaveRow(r.id);
    expect(row.instanceId).toBe(r.processInstanceId);
    const inst = await instance(r.processInstanceId);
    expect(inst.businessKey).toBe(r.id);
    expect(inst.variables).toMatchObject({
      taskUser: people.manager.userId,
      applyUser: people.applicant.userId,
      days: 2,
    });
    const [task] = await openTasks(r.processInstanceId);
    expect(task).toMatchObject({
      elementId: 'approve',
      assigneeId: people.manager.userId,
      formKey: '/work/process/leave/handle',
    });
  });

  it('reject → the applicant adjusts; a resubmit with a later end recomputes the days and goes to the approver again', async () => {
    const r = await file();
    const [first] = await openTasks(r.processInstanceId);
    await completeTask(t.services, people.manager, { taskId: first.id, flag: 'reject', comment: 'too long' });
    expect((await leaveRow(r.id)).status).toBe(LEAVE_STATUS.rejected);
    const [adjust] = await openTasks(r.processInstanceId);
    expect(adjust).toMatchObject({ elementId: 'adjust', name: '调整申请', assigneeId: people.applicant.userId });

    // A bad adjusted field: 400 naming it, and nothing moves (the task stays open, the row as it was).
    const bad = await refusal(
      completeTask(t.services, people.applicant, {
        taskId: adjust.id,
        flag: 'ok',
        variables: { endTime: '2026-11-30 09:00:00' },
      }),
    );
    expect(bad).toMatchObject({ status: 400, en: 'The end time must be after the start time' });
    expect((await openTasks(r.processInstanceId)).map((x) => x.id)).toEqual([adjust.id]);
    expect(await leaveRow(r.id)).toMatchObject({ status: LEAVE_STATUS.rejected, days: '2.0' });

    await completeTask(t.services, people.applicant, {
      taskId: adjust.id,
      flag: 'ok',
      variables: { endTime: '2026-12-03 12:00:00', reason: 'Shorter trip, longer rest' },
    });
    const row = await leaveRow(r.id);
    expect(row).toMatchObject({ status: LEAVE_STATUS.running, days: '2.5', reason: 'Shorter trip, longer rest' });
    expect(String(row.endTime)).toContain('2026-12-03 12:00:00');
    expect((await instance(r.processInstanceId)).variables).toMatchObject({
      days: 2.5,
      endTime: '2026-12-03 12:00:00',
    });
    const [again] = await openTasks(r.processInstanceId);
    expect(again).toMatchObject({ elementId: 'approve', assigneeId: people.manager.userId });
  });

  it('a resubmit may name another approver (of the tenant): the next approval is theirs', async () => {
    const r = await file();
    const [first] = await openTasks(r.processInstanceId);
    await completeTask(t.services, people.manager, { taskId: first.id, flag: 'reject' });
    const [adjust] = await openTasks(r.processInstanceId);
    const foreign = await refusal(
      completeTask(t.services, people.applicant, {
        taskId: adjust.id,
        flag: 'ok',
        variables: { taskUser: people.userB.userId },
      }),
    );
    expect(foreign).toMatchObject({ status: 400, zh: '审批人不是本租户的有效用户，请重新选择' });
    await completeTask(t.services, people.applicant, {
      taskId: adjust.id,
      flag: 'ok',
      variables: { taskUser: people.outsider.userId, category: '2' },
    });
    expect(await leaveRow(r.id)).toMatchObject({ taskUser: people.outsider.userId, category: 2 });
    const [next] = await openTasks(r.processInstanceId);
    expect(next).toMatchObject({ elementId: 'approve', assigneeId: people.outsider.userId });
  });

  it('pass → HR claims (a role holder; another user 403) → pass: the request passed, the instance ended', async () => {
    const r = await file();
    const [first] = await openTasks(r.processInstanceId);
    // An approver cannot rewrite the request through the variables: the request's values win.
    await completeTask(t.services, people.manager, {
      taskId: first.id,
      flag: 'ok',
      variables: { applyUser: people.manager.userId, days: 99 },
    });
    expect((await instance(r.processInstanceId)).variables).toMatchObject({
      applyUser: people.applicant.userId,
      days: 2,
    });
    const [hrTask] = await openTasks(r.processInstanceId);
    expect(hrTask).toMatchObject({ elementId: 'hrApprove', assigneeId: null, candidateRoles: ['hr'] });
    const notHr = await refusal(claimTask(t.services, people.outsider, hrTask.id));
    expect(notHr).toMatchObject({ status: 403, en: 'None of your roles may claim this task' });
    await claimTask(t.services, people.hr1, hrTask.id);
    expect((await leaveRow(r.id)).status).toBe(LEAVE_STATUS.running);
    const done = await completeTask(t.services, people.hr1, { taskId: hrTask.id, flag: 'ok', comment: 'enjoy' });
    expect(done.ended).toBe(true);
    expect((await leaveRow(r.id)).status).toBe(LEAVE_STATUS.passed);
    expect((await instance(r.processInstanceId)).status).toBe(INSTANCE.ended);
    const detail = await client(t, people.applicant.token).get(`${DETAIL}?businessId=${r.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const data = detail.json().data;
    expect(data.status).toBe('passed');
    expect(
      data.history.map((h: { historyActivityId: string; flag: string | null }) => [h.historyActivityId, h.flag]),
    ).toEqual(
      expect.arrayContaining([
        ['approve', 'ok'],
        ['hrApprove', 'ok'],
      ]),
    );
  });

  it('HR rejects → the applicant cancels: the request cancelled, the instance ended', async () => {
    const r = await file();
    const [first] = await openTasks(r.processInstanceId);
    await completeTask(t.services, people.manager, { taskId: first.id, flag: 'ok' });
    const [hrTask] = await openTasks(r.processInstanceId);
    await claimTask(t.services, people.hr1, hrTask.id);
    await completeTask(t.services, people.hr1, { taskId: hrTask.id, flag: 'reject', comment: 'no cover' });
    expect((await leaveRow(r.id)).status).toBe(LEAVE_STATUS.rejected);
    const [adjust] = await openTasks(r.processInstanceId);
    expect(adjust.elementId).toBe('adjust');
    const done = await completeTask(t.services, people.applicant, { taskId: adjust.id, flag: 'reject' });
    expect(done.ended).toBe(true);
    expect((await leaveRow(r.id)).status).toBe(LEAVE_STATUS.cancelled);
  });

  it('a tracker deleting the instance cancels the request in the same transaction', async () => {
    const r = await file();
    await deleteInstance(t.services, people.adminA, { instanceId: r.processInstanceId, reason: 'filed twice' });
    expect((await leaveRow(r.id)).status).toBe(LEAVE_STATUS.cancelled);
    expect((await instance(r.processInstanceId)).status).toBe(INSTANCE.deleted);
  });

  it('bad requests are refused with the field named, and leave neither request nor instance', async () => {
    const before = await counts();
    const post = (over: Record<string, unknown>) => client(t, people.applicant.token, 'en').post(START, form(over));
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ endTime: '2026-12-01 08:00:00' }, 400, 'endTime', 'The end time must be after the start time'],
      [
        { startTime: '2026-02-30 09:00:00' },
        400,
        'startTime',
        'The start time is not a valid time (yyyy-MM-dd HH:mm:ss)',
      ],
      [{ category: 99 }, 400, 'category', 'The leave type "99" does not exist; pick one of the leave type dictionary'],
      [
        { taskUser: people.userB.userId },
        400,
        'taskUser',
        'The approver is not an active user of this tenant; pick another',
      ],
      [{ taskUser: people.applicant.userId }, 400, 'taskUser', 'You cannot be your own approver'],
      [{ endTime: '2028-01-01 09:00:00' }, 400, 'endTime', 'A leave lasts at most one year'],
    ];
    for (const [over, status, field, message] of cases) {
      const res = await post(over);
      expect(res.statusCode, JSON.stringify(over)).toBe(status);
      expect(res.json().msg).toBe(message);
      expect(res.json().data).toEqual([{ field, message }]);
    }
    // Another tenant's definition is missing; a definition of another key is not the leave process.
    const [defB] = await withTenant(t.services.db, B, (tx) =>
      tx.select({ id: flowDefinition.id }).from(flowDefinition).where(eq(flowDefinition.defKey, 'leave')),
    );
    const other = await post({ processDefinitionId: defB.id });
    expect(other.statusCode).toBe(404);
    expect(other.json().msg).toBe('The process definition does not exist');
    expect(await counts()).toEqual(before);
    // The service refuses the same without the route.
    const direct = await refusal(startLeave(t.services, people.applicant, form({ endTime: '2026-12-01 09:00:00' })));
    expect(direct).toMatchObject({ status: 400, zh: '结束时间必须晚于开始时间' });
    expect(await counts()).toEqual(before);
  });

  it('the detail: participants and trackers read it; a non-participant and another tenant get 404', async () => {
    const r = await file();
    const url = `${DETAIL}?businessId=${r.id}`;
    const get = (p: Person) => client(t, p.token, 'en').get(url);
    for (const p of [people.applicant, people.manager, people.adminA]) expect((await get(p)).statusCode).toBe(200);
    const body = (await get(people.applicant)).json().data;
    expect(body).toMatchObject({
      id: r.id,
      taskUserName: 'manager',
      applyUserName: 'applicant',
      status: 'running',
      days: 2,
    });
    expect(body.history.map((h: { historyActivityId: string }) => h.historyActivityId)).toEqual(['start', 'approve']);
    // HR may claim only once the approver passed: before, HR is no participant.
    expect((await get(people.hr1)).statusCode).toBe(404);
    const [first] = await openTasks(r.processInstanceId);
    await completeTask(t.services, people.manager, { taskId: first.id, flag: 'ok' });
    expect((await get(people.hr1)).statusCode).toBe(200);
    const outsider = await get(people.outsider);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().msg).toBe('The leave request does not exist');
    // Tenant B's administrator holds 流程跟踪, but not A's rows.
    const fromB = await get(people.adminB);
    expect(fromB.statusCode).toBe(404);
    expect(fromB.json().msg).toBe('The leave request does not exist');
  });

  it('an existing database: the start-up step gives a tenant made before it the role hr, the types and the process, once', async () => {
    const old = '420009';
    await t.services.db.insert(tenant).values({ id: newId(), tenantId: old, tenantName: 'Told' });
    expect(await roleId(old, 'hr')).toBeUndefined();
    expect(await seedMissingLeave(t.services.db)).toBe(1);
    expect(await roleId(old, 'hr')).toBeTruthy();
    const defs = await withTenant(t.services.db, old, (tx) =>
      tx.select({ v: flowDefinition.defVersion }).from(flowDefinition).where(eq(flowDefinition.defKey, 'leave')),
    );
    expect(defs).toEqual([{ v: 1 }]);
    expect(await seedMissingLeave(t.services.db)).toBe(0);
    // A tenant's own choice stands: a removed role hr is not made again.
    await withTenant(t.services.db, old, (tx) =>
      tx
        .update(role)
        .set({ isDeleted: 1 })
        .where(and(eq(role.tenantId, old), eq(role.roleAlias, 'hr'))),
    );
    expect(await seedMissingLeave(t.services.db)).toBe(0);
    expect(await roleId(old, 'hr')).toBeUndefined();
  });
});
