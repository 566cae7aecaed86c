import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { fill } from '@atrium/contract';
import { CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { subdomain_list as def, SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { tenant } from '../../db/schema/index.ts';
import { writeAudit, type Row } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, langOf, render } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { perAddress } from '../../platform/rate-limit.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { readTenant, withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { openApproval, registerApprovalEffect, withdrawPending } from '../approval/index.ts';
import { namesByIds } from '../../db/names.ts';
import { clientScopeSql, registerClientUsage, clientInfo } from '../client/index.ts';
import { enqueueSms } from '../outbox/index.ts';
import { subdomainLifecycleTexts as life, subdomainTexts as texts } from './messages.ts';
import {
  baseDomainOf,
  bindLimitParam,
  checkLegal,
  claimHost,
  hasRunningSubDomain,
  latestApplication,
  releaseHost,
  runningHostTenant,
  setHostRunning,
  unbindDevice,
  type SubDomainRow,
} from './service.ts';
import { subDomain } from './table.ts';

const tags = ['subdomain'];
const REFER = 'subdomain';

/** The public `ask`: per client address, this many calls a minute (per process; docs/subdomains.md). */
export const ASK_LIMIT = { limit: 60, windowMs: 60_000 };

const label = z.string().max(255).default('');
const account = z.string().trim().max(45).optional();

/**
 * 子域名 (docs/subdomains.md): the records from the definition (pagelist, detail, submit of remark and bind limit,
 * remove, start, stop, decreseBindSubDomain), the application and its approval, the legality check, and the public
 * `ask` of the edge proxy.
 */
export default defineModule((root, s) => {
  const binding = bindResource(def, subDomain, {
    async decorate(tx, auth, rows) {
      const byId = await namesByIds(
        tx,
        auth.tenantId,
        { id: clientInfo.id, name: clientInfo.clientName, tenantId: clientInfo.tenantId },
        rows.map((r) => r.clientId),
      );
      return rows.map((r) => ({ ...r, clientName: byId.get(String(r.clientId)) ?? null }));
    },
    async beforeRemove(tx, ids, auth, rows) {
      if (rows.some((r) => r.status === SUBDOMAIN_STATUS.running)) throw badRequest(texts.runningNoRemove);
      for (const id of ids) {
        await releaseHost(tx, auth.tenantId, id);
        await withdrawPending(tx, auth.tenantId, REFER, id, s.now());
      }
    },
    actions: {
      async start({ tx, auth, rows }) {
        const clientIds = rows.map((r) => String(r.clientId));
        const clients = await tx
          .select({ id: clientInfo.id })
          .from(clientInfo)
          .where(
            and(
              eq(clientInfo.tenantId, auth.tenantId),
              inArray(clientInfo.id, clientIds),
              eq(clientInfo.isDeleted, 0),
              eq(clientInfo.status, CLIENT_STATUS.approved),
            ),
          );
        if (clients.length !== new Set(clientIds).size) throw badRequest(life.clientNotApproved);
        for (const r of rows) {
          await tx.update(subDomain).set({ startTime: s.now(), stopTime: null }).where(eq(subDomain.id, r.id));
          await setHostRunning(tx, auth.tenantId, r.id, true);
        }
      },
      async stop({ tx, auth, rows }) {
        for (const r of rows) {
          await tx.update(subDomain).set({ stopTime: s.now() }).where(eq(subDomain.id, r.id));
          await setHostRunning(tx, auth.tenantId, r.id, false);
        }
      },
      async unbind({ tx, auth, rows }) {
        for (const r of rows) await unbindDevice(tx, auth.tenantId, r.id);
        return { changed: true };
      },
    },
    // An approved application of a client made for the purpose (the generated suites run on it).
    async fixture(tx, auth) {
      const now = new Date();
      const clientId = newId();
      const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      await tx.insert(clientInfo).values({
        id: clientId,
        tenantId: auth.tenantId,
        clientName: 'fixture',
        clientType: 1,
        creditCode: '91110108MA01ABCD0B',
        contactName: 'fixture',
        operatorTel: phone,
        regionCode: '110101',
        appClientAccount: phone,
        status: CLIENT_STATUS.approved,
        createTime: now,
        updateTime: now,
      });
      const id = newId();
      const name = `fx${id.slice(-12)}`;
      const fullDomain = `${name}.${(await baseDomainOf(tx, auth.tenantId)) ?? 'fixture.invalid'}`;
      await tx.insert(subDomain).values({
        id,
        tenantId: auth.tenantId,
        clientId,
        appClientAccount: phone,
        subDomain: name,
        fullDomain,
        regionCode: '110101',
        bindLimit: 10,
        status: SUBDOMAIN_STATUS.approved,
        createTime: now,
        updateTime: now,
      });
      await claimHost(tx, auth.tenantId, id, fullDomain);
      return id;
    },
  });
  const svc = resourceRoutes(root, s, binding);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const labels = binding.spec.labels;
  const present = (r: SubDomainRow) => binding.spec.present!(r as unknown as Row);

  // The client module's public pages find their tenant by a running sub-domain's host.
  s.registry.hostTenant = (host) => runningHostTenant(s.db, host);

  // A client with a running sub-domain cannot be removed (the client module asks every registered usage).
  registerClientUsage(async (tx, tenantId, clientId) =>
    (await hasRunningSubDomain(tx, tenantId, clientId)) ? texts.clientHasRunning : null,
  );

  // The decision on an application: 0 → 1 approved, or 0 → 4 rejected (its full domain is free again).
  registerApprovalEffect(REFER, async (tx, auth, approval, d) => {
    const [row] = await tx
      .select()
      .from(subDomain)
      .where(and(eq(subDomain.tenantId, auth.tenantId), eq(subDomain.id, String(approval.referId))))
      .for('update');
    if (!row || row.isDeleted !== 0 || row.status !== SUBDOMAIN_STATUS.applied) return;
    const to = d.pass ? SUBDOMAIN_STATUS.approved : SUBDOMAIN_STATUS.rejected;
    await tx
      .update(subDomain)
      .set({ status: to, updateUser: auth.userId, updateTime: s.now(), version: sql`${subDomain.version} + 1` })
      .where(eq(subDomain.id, row.id));
    if (!d.pass) await releaseHost(tx, auth.tenantId, row.id);
    await notifyClient(tx, auth, row, d.pass, d.opinion);
  });

  /** Tells the client by SMS (through the outbox, in the decision's transaction). */
  async function notifyClient(tx: Db, auth: AuthContext, row: SubDomainRow, pass: boolean, opinion: string | null) {
    const [c] = await tx
      .select({ phone: clientInfo.operatorTel })
      .from(clientInfo)
      .where(and(eq(clientInfo.tenantId, auth.tenantId), eq(clientInfo.id, row.clientId)));
    if (!c?.phone) return;
    const [t] = await tx
      .select({ name: tenant.tenantName })
      .from(tenant)
      .where(and(eq(tenant.tenantId, auth.tenantId), eq(tenant.isDeleted, 0)));
    const text = fill(pass ? texts.smsApproved : texts.smsRejected, {
      tenant: t?.name ?? '',
      domain: row.fullDomain,
      opinion: opinion ?? '',
    }).zh;
    await enqueueSms(tx, {
      tenantId: auth.tenantId,
      phone: c.phone,
      templateCode: pass ? 'subdomain_approved' : 'subdomain_rejected',
      params: pass ? { domain: row.fullDomain } : { domain: row.fullDomain, opinion: opinion ?? '' },
      text,
      refType: REFER,
      refId: row.id,
      userId: auth.userId,
    });
  }

  /** The subdomain_list data scope applied to the clients table (which clients a staff member may apply for). */
  const clientScope = (auth: AuthContext) => clientScopeSql(s, auth, def.code);

  // ——— Calls of the console ———

  // The spec's list: the same page as pagelist.
  app.get(`${def.base}/list`, { config: { permission: def.code, labels }, schema: { tags } }, async (req) =>
    ok(await svc.list(requireAuth(req), req.query as Record<string, unknown>)),
  );

  // {legal, reason}: the reason in the request's language (the form shows it under the name as it is typed). Called as
  // the name is typed, so it is a read like a list (docs/subdomains.md "Legal names"): the live-state check and the
  // tenant context go with its first statement, and its commit is not waited for.
  app.get(
    `${def.base}/checkSubDomainLegal`,
    {
      config: { permission: def.code, labels, liveInRead: true },
      schema: { tags, querystring: z.object({ subDomain: label }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const lang = langOf(req.headers['accept-language']);
      const res = await readTenant(
        s.db,
        auth.tenantId,
        (tx) => checkLegal(s, tx, auth.tenantId, req.query.subDomain),
        auth.liveCheck,
      );
      return ok({
        legal: res.legal,
        reason: render(res.reason, lang),
        subDomain: res.label,
        fullDomain: res.fullDomain,
      });
    },
  );

  // An application: state 0 and a pending approval. A client account applies for its own client; staff name the
  // client by its account.
  app.get(
    `${def.base}/submitSubDomainApply`,
    {
      config: { permission: `${def.code}_add`, labels },
      schema: { tags, querystring: z.object({ subDomain: label, appClientAccount: account }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const given = req.query.appClientAccount || undefined;
      if (!auth.clientInfoId && !given)
        throw badRequest(texts.accountRequired, [{ field: 'appClientAccount', message: texts.accountRequired }]);
      const scope = auth.clientInfoId ? undefined : await clientScope(auth);
      const row = await withTenant(s.db, auth.tenantId, async (tx) => {
        const [c] = await tx
          .select()
          .from(clientInfo)
          .where(
            and(
              eq(clientInfo.tenantId, auth.tenantId),
              eq(clientInfo.isDeleted, 0),
              eq(clientInfo.status, CLIENT_STATUS.approved),
              auth.clientInfoId ? eq(clientInfo.id, auth.clientInfoId) : eq(clientInfo.appClientAccount, given!),
              scope,
            ),
          )
          .limit(1);
        if (!c) throw badRequest(texts.noClient, [{ field: 'appClientAccount', message: texts.noClient }]);
        if (auth.clientInfoId && given && given !== c.appClientAccount) throw badRequest(life.notYours);
        const legality = await checkLegal(s, tx, auth.tenantId, req.query.subDomain);
        if (!legality.legal) throw badRequest(legality.reason, [{ field: 'subDomain', message: legality.reason }]);
        const now = s.now();
        const id = newId();
        const values = {
          id,
          tenantId: auth.tenantId,
          clientId: c.id,
          appClientAccount: c.appClientAccount ?? given ?? null,
          subDomain: legality.label,
          fullDomain: legality.fullDomain!,
          regionCode: c.regionCode,
          bindCount: 0,
          bindLimit: await bindLimitParam(tx),
          status: SUBDOMAIN_STATUS.applied,
          createUser: auth.userId,
          createDept: auth.deptId,
          createTime: now,
          updateUser: auth.userId,
          updateTime: now,
        };
        // Two applications of one label race to the unique index: the loser is told it is taken.
        try {
          await tx.execute(sql`savepoint apply_subdomain`);
          await tx.insert(subDomain).values(values);
          await tx.execute(sql`release savepoint apply_subdomain`);
        } catch (err) {
          await tx.execute(sql`rollback to savepoint apply_subdomain`);
          const e = err as { code?: string; cause?: { code?: string } };
          if (e.code === '23505' || e.cause?.code === '23505')
            throw badRequest(texts.taken, [{ field: 'subDomain', message: texts.taken }]);
          throw err;
        }
        await claimHost(tx, auth.tenantId, id, values.fullDomain);
        await openApproval(
          tx,
          auth.tenantId,
          {
            referType: REFER,
            referId: id,
            title: fill(texts.approvalTitle, { domain: values.fullDomain }).zh,
            applicantName: c.clientName,
            applicantPhone: c.operatorTel,
            regionCode: c.regionCode,
            userId: auth.userId,
          },
          now,
        );
        await writeAudit(s, tx, auth, req.id, def.code, 'apply', id, null, {
          subDomain: values.subDomain,
          clientId: c.id,
        });
        return { ...values, isDeleted: 0, version: 1, startTime: null, stopTime: null, remark: null } as SubDomainRow;
      });
      return ok(present(row), texts.applied);
    },
  );

  // The state of the latest application of a label (of one account, when named), within the caller's data scope.
  app.get(
    `${def.base}/checkSubDomainIsPassApproval`,
    {
      config: { permission: def.code, labels },
      schema: { tags, querystring: z.object({ subDomain: label, appClientAccount: account }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const given = req.query.appClientAccount || undefined;
      const row = await withTenant(s.db, auth.tenantId, (tx) =>
        latestApplication(
          tx,
          auth.tenantId,
          req.query.subDomain.trim().toLowerCase(),
          and(given ? eq(subDomain.appClientAccount, given) : undefined, scope),
        ),
      );
      if (!row) throw new AppError(404, texts.noApplication);
      const passed: number[] = [SUBDOMAIN_STATUS.approved, SUBDOMAIN_STATUS.running, SUBDOMAIN_STATUS.stopped];
      return ok({
        id: row.id,
        subDomain: row.subDomain,
        fullDomain: row.fullDomain,
        status: row.status,
        pass: passed.includes(row.status),
      });
    },
  );

  // ——— Public: the edge proxy's question before it issues a certificate (Caddy on-demand TLS `ask`) ———
  app.get(
    `${def.base}/ask`,
    {
      config: {
        auth: 'none',
        rateLimit: perAddress(ASK_LIMIT.limit, ASK_LIMIT.windowMs, (seconds) => fill(texts.tooMany, { seconds })),
      },
      schema: { tags, querystring: z.object({ domain: z.string().max(300).default('') }) },
    },
    async (req) => {
      const found = await runningHostTenant(s.db, req.query.domain);
      if (!found) throw new AppError(404, texts.askUnknown);
      return ok(null, texts.askOk);
    },
  );
});
