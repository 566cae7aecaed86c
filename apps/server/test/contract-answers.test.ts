// Answers of the routes declared in the contract (docs/api.md "Answers"): serialised from the declared schema, an
// allowlist (a field the handler adds never leaves), and — in the tests — held to that schema. The second half is
// generated from the declarations: every declared route is called here and its answer parses with its schema, or it
// names the test that reaches it (where the same check runs on every answer) and why not here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, defineRoute, methodsOf, type ApiRoute, type RouteSchemas } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import { ok } from '../src/platform/envelope.ts';
import { fromContract } from '../src/platform/contract-route.ts';
import { md5Hex } from '../src/platform/password.ts';
import { client, createTestApp, login, loginToken, tenantUser, type TestApp } from './harness.ts';

const probe = { answer: z.object({ name: z.string(), sort: z.number().optional() }) } satisfies RouteSchemas;
const probeRoute = defineRoute<typeof probe>()({
  method: 'GET',
  path: '/api/test-answers/probe',
  auth: 'none',
  summary: 'A route of this test',
});
const plainProbe = defineRoute<typeof probe>()({
  method: 'GET',
  path: '/api/test-answers/plain',
  auth: 'none',
  wire: 'plain',
  summary: 'A route of this test',
});
/** What the probes answer next (set by each test). */
let next: unknown = {};

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.route({ ...fromContract(probeRoute, probe, ['test']), handler: async () => ok(next) });
    app.route({ ...fromContract(plainProbe, probe, ['test']), handler: async () => next });
  });
  admin = (await loginToken(t)).access;
}, 600_000);
afterAll(() => t.close());

describe('a declared route answers through its schema', () => {
  it('leaves out a field the handler adds (an allowlist), in the envelope and plain', async () => {
    next = { name: 'kept', sort: 2, secret: 'never sent', password: 'x' };
    const res = await t.app.inject({ method: 'GET', url: probeRoute.path });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, success: true, data: { name: 'kept', sort: 2 }, msg: expect.any(String) });
    expect(res.body).not.toContain('never sent');
    const plain = await t.app.inject({ method: 'GET', url: plainProbe.path });
    expect(plain.json()).toEqual({ name: 'kept', sort: 2 });
  });

  it('in the tests, an answer outside its schema is a 500 naming the route', async () => {
    next = { sort: 'three' };
    const res = await t.app.inject({ method: 'GET', url: probeRoute.path });
    expect(res.statusCode).toBe(500);
    expect(res.json().msg).toContain(`GET ${probeRoute.path} answered outside its declared schema`);
  });

  it('the OpenAPI document shows the answer', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const answer = doc.paths[probeRoute.path].get.responses['200'].content['application/json'].schema;
    expect(answer.properties.data.properties).toHaveProperty('name');
  });
});

type Call = (c: ReturnType<typeof client>) => Promise<{ statusCode: number; json: () => unknown; body: string }>;
/** How this test reaches each declared route as the platform administrator, or where another test reaches it. */
const CALLS: Record<string, Call | { reachedIn: string }> = {
  'shell.token': () => login(t),
  'shell.captcha': (c) => c.get('/api/blade-auth/oauth/captcha'),
  'shell.logout': async () => client(t, (await loginToken(t)).access).post('/api/blade-auth/oauth/logout'),
  'shell.oauthUserInfo': (c) => c.get('/api/blade-auth/oauth/user-info'),
  'shell.clearCache': (c) => c.get('/api/blade-auth/oauth/clear-cache'),
  'shell.tenantInfo': (c) => c.get('/api/blade-system/tenant/info?domain=localhost'),
  'shell.menuRoutes': (c) => c.get('/api/blade-system/menu/routes'),
  'shell.menuButtons': (c) => c.get('/api/blade-system/menu/buttons'),
  'shell.topMenus': (c) => c.get('/api/blade-system/menu/top-menu'),
  'shell.dictionary': (c) => c.get('/api/blade-system/dict/dictionary?code=sex'),
  'shell.bizDictionary': (c) => c.get('/api/blade-system/dict-biz/dictionary?code=sex'),
  'shell.frameOrigins': (c) => c.get('/api/blade-system/param/frame-origins'),
  'shell.errorLogs': (c) => c.post('/api/blade-log/error-logs', { logs: [{ message: 'probe', url: '/x' }] }),
  'user.info': (c) => c.get('/api/blade-user/info'),
  'user.updateInfo': (c) => c.post('/api/blade-user/update-info', { realName: 'Admin' }),
  'user.updatePassword': async () => {
    const token = await tenantUser(t, '000000', 'answers-pw', [], 'Answers#2026a');
    return client(t, token).post('/api/blade-user/update-password', {
      oldPassword: md5Hex('Answers#2026a'),
      newPassword: md5Hex('Answers#2026b'),
      newPassword1: md5Hex('Answers#2026b'),
    });
  },
  'user.registerGuest': (c) =>
    c.post('/api/blade-user/register-guest', { tenantId: '000000', account: 'answers-guest', password: 'Guest#2026a' }),
  'device.dictListAll': (c) => c.get('/api/blade-device-access/dictioncary/listAll?deviceType=132'),
  'device.templateOptions': (c) => c.get('/api/blade-device-access/configtemplate/options'),
  'device.subDomainOptions': (c) => c.get('/api/blade-device-access/cameraDevice/subDomainOptions'),
  'device.configItems': async (c) => {
    const options = (await c.get('/api/blade-device-access/configtemplate/options?deviceType=132')).json() as {
      data: { id: string }[];
    };
    return c.get(`/api/blade-device-access/cameraDevice/configItems?templateId=${options.data[0].id}`);
  },
  'device.saveNvrChannelInfo': async (c) => {
    const nvr = await c.post(`${cameradevice.base}/save`, {
      deviceCode: '11010100001180999001',
      name: 'answers NVR',
      deviceType: '118',
      regionCode: '110101',
    });
    expect([nvr.statusCode, nvr.body.slice(0, 200)]).toEqual([200, nvr.body.slice(0, 200)]);
    const nvrDeviceId = (nvr.json() as { data: { id: string } }).data.id;
    const channels = [{ channelNo: 1, channelCode: '11010100001310999001', name: 'ch1' }, { channelNo: 2 }];
    return c.post(api.device.saveNvrChannelInfo.path, { nvrDeviceId, channels });
  },
  // Workflow (docs/workflow.md): the lists as the platform administrator; flow.test.ts drives every other call (models,
  // uploads, claims, completes, tracking, deployments) with its answers checked, leave.test.ts the leave process.
  'flow.modelList': (c) => c.get(api.flow.modelList.path),
  'flow.managerList': (c) => c.get(api.flow.managerList.path),
  'flow.followList': (c) => c.get(api.flow.followList.path),
  'flow.startList': (c) => c.get(api.flow.startList.path),
  'flow.claimList': (c) => c.get(api.flow.claimList.path),
  'flow.todoList': (c) => c.get(api.flow.todoList.path),
  'flow.sendList': (c) => c.get(api.flow.sendList.path),
  'flow.doneList': (c) => c.get(api.flow.doneList.path),
  'flow.waitingCount': (c) => c.get(api.flow.waitingCount.path),
  'flow.userOptions': (c) => c.get(`${api.flow.userOptions.path}?name=admin`),
  'flow.modelDetail': { reachedIn: 'flow.test.ts' },
  'flow.modelSubmit': { reachedIn: 'flow.test.ts' },
  'flow.modelRemove': { reachedIn: 'flow.test.ts' },
  'flow.modelDeploy': { reachedIn: 'flow.test.ts' },
  'flow.changeState': { reachedIn: 'flow.test.ts' },
  'flow.deployUpload': { reachedIn: 'flow.test.ts' },
  'flow.deleteDeployment': { reachedIn: 'flow.test.ts' },
  'flow.deleteProcessInstance': { reachedIn: 'flow.test.ts' },
  'flow.claimTask': { reachedIn: 'flow.test.ts' },
  'flow.completeTask': { reachedIn: 'flow.test.ts' },
  'flow.historyFlowList': { reachedIn: 'flow.test.ts' },
  'flow.diagram': { reachedIn: 'flow.test.ts' },
  'flow.leaveStart': { reachedIn: 'leave.test.ts' },
  'flow.leaveDetail': { reachedIn: 'leave.test.ts' },
  'log.auditList': (c) => c.get(`${api.log.auditList.path}?entity=dept`),
  'log.errorList': (c) => c.get(api.log.errorList.path),
  'log.auditDetail': { reachedIn: 'audit-viewer.test.ts' },
  'log.errorDetail': { reachedIn: 'audit-viewer.test.ts' },
  'grants.roleGrantTree': (c) => c.get('/api/blade-system/menu/grant-tree'),
  'grants.roleTreeKeys': async (c) => c.get(`/api/blade-system/menu/role-tree-keys?roleIds=${await adminRoleId()}`),
  'grants.topGrantTree': (c) => c.get('/api/blade-system/menu/grant-top-tree'),
  'grants.topTreeKeys': async (c) => {
    const tops = (await c.get('/api/blade-system/menu/top-menu')).json() as { data: { id: string }[] };
    return c.get(`/api/blade-system/menu/top-tree-keys?topMenuIds=${tops.data[0].id}`);
  },
  'user.platformDetail': async (c) => {
    const info = (await c.get('/api/blade-user/info')).json() as { data: { id: string } };
    return c.get(`${api.user.platformDetail.path}?id=${info.data.id}`);
  },
  'grants.topMenuGrant': { reachedIn: 'grant-race.test.ts' },
  'business.clientInfoVerify': (c) => c.get(api.business.clientInfoVerify.path),
  'business.clientInfoManageList': (c) => c.get(api.business.clientInfoManageList.path),
  'business.clientList': (c) => c.get(api.business.clientList.path),
  'business.approvalPage': (c) => c.get(api.business.approvalPage.path),
  'business.approvalDetail': { reachedIn: 'client.test.ts' },
  'business.businessApproval': { reachedIn: 'client.test.ts' },
  'business.approveClients': { reachedIn: 'probe-rules.test.ts' },
  // The staff's calls on one client and the forgotten password: client.test.ts approves a client, sets and resets its
  // password (an SMS code's ticket), queues an email, adds and reads follow-ups and removes it — other tenants: 404.
  'business.updatePwd': { reachedIn: 'client.test.ts' },
  'business.resetPassword': { reachedIn: 'client.test.ts' },
  'business.sendEmail': { reachedIn: 'client.test.ts' },
  'business.customerTrack': { reachedIn: 'client.test.ts' },
  'business.clientTrackRecord': { reachedIn: 'client.test.ts' },
  'business.delClientInfo': { reachedIn: 'client.test.ts' },
  'business.verify': { reachedIn: 'client.test.ts' },
  'business.verification': { reachedIn: 'client.test.ts' },
  'business.verificat': { reachedIn: 'client.test.ts' },
  'business.register': { reachedIn: 'client.test.ts' },
  'business.licence': { reachedIn: 'client.test.ts' },
  'business.reviewed': { reachedIn: 'client.test.ts' },
  'business.checkSubDomainLegal': { reachedIn: 'subdomain.test.ts' },
  'business.submitSubDomainApply': { reachedIn: 'subdomain.test.ts' },
  'business.checkSubDomainIsPassApproval': { reachedIn: 'subdomain.test.ts' },
  'business.ask': { reachedIn: 'subdomain.test.ts' },
  // docs/notices.md: notice.test.ts reaches each with notices, device events and failed deliveries in the tenant.
  'desk.bell': (c) => c.get(api.desk.bell.path),
  'desk.bellSeen': (c) => c.post(api.desk.bellSeen.path),
  'desk.read': { reachedIn: 'notice.test.ts' },
  'system.dictParentList': (c) => c.get(api.system.dictParentList.path),
  'system.bizDictParentList': (c) => c.get(api.system.bizDictParentList.path),
  'system.dictChildList': async (c) => {
    const page = (await c.get(api.system.dictParentList.path)).json() as { data: { records: { id: string }[] } };
    return c.get(`${api.system.dictChildList.path}?parentId=${page.data.records[0].id}`);
  },
  'system.bizDictChildList': { reachedIn: 'system.test.ts' },
  'system.lazyMenuList': (c) => c.get(api.system.lazyMenuList.path),
  'system.menuList': (c) => c.get(api.system.menuList.path),
  'system.roleTreeById': async (c) => c.get(`${api.system.roleTreeById.path}?roleId=${await adminRoleId()}`),
  // Always refused (one data source per deployment): a 400 in every language, no answer to check.
  'system.tenantDatasource': { reachedIn: 'tenant-move.test.ts' },
  'system.tenantExport': { reachedIn: 'tenant-transfer.test.ts' },
  'system.tenantImport': { reachedIn: 'tenant-transfer.test.ts' },
  'region.names': (c) => c.get(`${api.region.names.path}?codes=110000,110101`),
  'region.exportXlsx': { reachedIn: 'region.test.ts' },
  'region.importXlsx': { reachedIn: 'region.test.ts' },
  'region.configByRegionType': { reachedIn: 'sys-config-region.test.ts' },
  // A multipart upload: user.test.ts, email.test.ts and bad-input.test.ts send files through it, answers checked.
  'report.run': async (c) => {
    const made = await c.post('/api/blade-report/report/rest/submit', { name: 'answers', dataset: 'device_region' });
    return c.get(`${api.report.run.path}?id=${(made.json() as { data: { id: string } }).data.id}`);
  },
  // A stream: report.test.ts reads its csv and its xlsx back.
  'report.exportFile': { reachedIn: 'report.test.ts' },
  'resource.putFile': { reachedIn: 'user.test.ts' },
  // Needs an SMS configuration of the tenant: outbox.test.ts and sms.test.ts send through it, answers checked.
  'resource.sendMessage': { reachedIn: 'outbox.test.ts' },
  'statistics.onlinePage': (c) => c.get('/api/deviceinOnlineStatusStatics/page'),
  'statistics.onlineTrend': (c) => c.get('/api/deviceinOnlineStatusStatics/trend?days=3'),
  'statistics.deviceRanking': (c) => c.get('/api/home/deviceJoinRankingByRegionReport'),
  'statistics.channelRanking': (c) => c.get('/api/home/channelJoinRankingByRegionReport'),
  'video.wall': (c) => c.get('/api/video/queryDeviceVideoByRegionCode'),
  // A stream needs a camera: video.test.ts plays one (ffmpeg on an RTSP test camera), with every answer checked.
  'video.play': { reachedIn: 'video.test.ts' },
  'video.touch': { reachedIn: 'video.test.ts' },
  'video.ptz': { reachedIn: 'video.test.ts' },
  'video.live': { reachedIn: 'video-live.test.ts' },
  'video.hlsFile': { reachedIn: 'video.test.ts' },
};

async function adminRoleId(): Promise<string> {
  const info = (await client(t, admin).get('/api/blade-auth/oauth/user-info')).json() as { data: { roleId: string } };
  return info.data.roleId.split(',')[0];
}

const declared = Object.entries(api).flatMap(([area, routes]) =>
  Object.entries(routes as Record<string, ApiRoute>).map(([name, route]) => ({
    key: `${area}.${name}`,
    area,
    name,
    route,
  })),
);

describe('every declared route answers as declared', () => {
  it('each declared route is called here or names the test that reaches it', () => {
    expect(declared.map((d) => d.key).filter((k) => !(k in CALLS))).toEqual([]);
    expect(Object.keys(CALLS).filter((k) => !declared.some((d) => d.key === k))).toEqual([]);
  });

  for (const { key, area, name, route } of declared) {
    const call = CALLS[key];
    if (!call || typeof call !== 'function') continue;
    it(`${methodsOf(route).join('/')} ${route.path}`, async () => {
      const res = await call(client(t, admin));
      expect(res.statusCode, res.body).toBe(200);
      const areas: Record<string, Record<string, unknown>> = apiSchemas;
      const schemas = areas[area][name] as RouteSchemas;
      const body = res.json() as { success?: boolean; data?: unknown };
      const value = (route.wire ?? 'envelope') === 'envelope' ? body.data : body;
      if (route.wire !== 'plain') expect(body.success).toBe(true);
      const parsed = schemas.answer.safeParse(value);
      expect(parsed.success, parsed.success ? '' : z.prettifyError(parsed.error)).toBe(true);
    });
  }
});
