import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { tenant } from '../../db/schema/index.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { crudRoutes, idList, writeAudit } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { fieldText, optionalText, requiredText } from '../../platform/fields.ts';
import { requireAuth } from '../../platform/guard.ts';
import { parseDateInput } from '../../platform/paging.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { nextTenantId, provisionTenant } from './service.ts';

const dateMsg = fieldText('日期格式错误', 'Bad date');
const date = z
  .union([z.string().trim().max(40), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (v === null || v === '') return null;
    const d = parseDateInput(v);
    if (!d) {
      ctx.addIssue({ code: 'custom', message: dateMsg });
      return z.NEVER;
    }
    return d;
  });
const quota = z.coerce
  .number()
  .int()
  .min(-1, fieldText('账号额度须为 -1（不限）或正整数', 'Quota is -1 (unlimited) or a positive number'))
  .max(10_000_000);

const body = z.object({
  tenantId: z
    .union([
      z
        .string()
        .trim()
        .regex(/^\d{6}$/, fieldText('租户编号须为 6 位数字', 'The tenant id has 6 digits')),
      z.literal(''),
    ])
    .optional(),
  tenantName: requiredText('请输入租户名称', 'Enter the tenant name', 50),
  domain: z
    .union([
      z
        .string()
        .trim()
        .toLowerCase()
        .max(255)
        .regex(/^[a-z0-9.-]+(:\d+)?$/, fieldText('域名格式不正确', 'Bad domain')),
      z.literal(''),
    ])
    .optional()
    .nullable(),
  backgroundUrl: z
    .union([
      z
        .string()
        .trim()
        .max(1000)
        .regex(
          /^(https?:\/\/|\/)/,
          fieldText('背景图地址须以 http、https 或 / 开头', 'The URL starts with http, https or /'),
        ),
      z.literal(''),
    ])
    .optional()
    .nullable(),
  linkman: optionalText(20),
  contactNumber: optionalText(20),
  address: optionalText(255),
  accountNumber: quota.default(-1),
  expireTime: date,
});

const settingBody = z.object({ accountNumber: quota, expireTime: date });

const texts = {
  platformFixed: { zh: '平台租户不能删除或修改编号', en: 'The platform tenant cannot be removed or renumbered' },
  datasource: { zh: '暂不支持', en: 'Not supported yet' },
};

/** Tenants (platform administrator only): creating one provisions it in the same transaction. */
export function tenantRoutes(root: FastifyInstance, s: Services) {
  crudRoutes(root, s, {
    entity: 'tenant',
    table: tenant,
    base: '/api/blade-system/tenant',
    global: true,
    platform: true,
    codes: { view: 'tenant', add: 'tenant_add', edit: 'tenant_edit', remove: 'tenant_delete' },
    body,
    list: {
      filters: {
        tenantId: { column: tenant.tenantId, op: 'like' },
        tenantName: { column: tenant.tenantName, op: 'like' },
        linkman: { column: tenant.linkman, op: 'like' },
        domain: { column: tenant.domain, op: 'like' },
      },
      sorts: {
        tenantId: tenant.tenantId,
        tenantName: tenant.tenantName,
        createTime: tenant.createTime,
        expireTime: tenant.expireTime,
      },
      defaultSort: [sql`${tenant.tenantId} asc`],
      createTime: tenant.createTime,
    },
    unique: {
      tenant_tenant_id_uq: { field: 'tenantId', text: { zh: '租户编号已存在', en: 'The tenant id already exists' } },
      tenant_domain_uq: {
        field: 'domain',
        text: { zh: '域名已被其他租户使用', en: 'The domain is used by another tenant' },
      },
    },
    async beforeSave({ tx, input, existing }) {
      const domain = input.domain || null;
      if (existing) {
        if (input.tenantId && input.tenantId !== existing.tenantId)
          throw badRequest(texts.platformFixed, [{ field: 'tenantId', message: texts.platformFixed.zh }]);
        return { tenantId: existing.tenantId, domain };
      }
      return { tenantId: input.tenantId || (await nextTenantId(tx)), domain };
    },
    async afterSave({ tx, auth, existing, row }) {
      if (existing) return;
      return provisionTenant(tx, { tenantId: String(row.tenantId), tenantName: String(row.tenantName) }, auth, s.now());
    },
    async beforeRemove(_tx, _ids, _auth, rows) {
      if (rows.some((r) => r.tenantId === PLATFORM_TENANT)) throw badRequest(texts.platformFixed);
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['tenant'];
  /** Account quota and expiry of several tenants at once. */
  app.post(
    '/api/blade-system/tenant/setting',
    {
      config: { permission: 'tenant_setting', platform: true },
      schema: { tags, querystring: z.object({ ids: idList }), body: settingBody },
    },
    async (req) => {
      const auth = requireAuth(req);
      const ids = [...new Set(req.query.ids)];
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const rows = await tx
          .select()
          .from(tenant)
          .where(and(inArray(tenant.id, ids), eq(tenant.isDeleted, 0)));
        if (rows.length !== ids.length) throw notFound();
        const set = {
          accountNumber: req.body.accountNumber,
          ...(req.body.expireTime !== undefined ? { expireTime: req.body.expireTime } : {}),
        };
        await tx
          .update(tenant)
          .set({ ...set, updateUser: auth.userId, updateTime: s.now(), version: sql`${tenant.version} + 1` })
          .where(inArray(tenant.id, ids));
        for (const r of rows)
          await writeAudit(
            s,
            tx,
            auth,
            req.id,
            'tenant',
            'setting',
            r.id,
            { accountNumber: r.accountNumber, expireTime: r.expireTime },
            set,
          );
      });
      return ok(true, '配置成功');
    },
  );

  // Per-tenant data sources are a later issue; say so rather than pretend.
  app.post(
    '/api/blade-system/tenant/datasource',
    {
      config: { permission: 'tenant_setting', platform: true },
      schema: { tags, querystring: z.record(z.string(), z.unknown()), body: z.unknown().optional() },
    },
    async () => {
      throw badRequest(texts.datasource);
    },
  );

  /** Public: the login page asks which tenant serves this host name. Unknown host → data null, not an error. */
  app.get(
    '/api/blade-system/tenant/info',
    {
      config: { auth: 'none' },
      schema: { tags, querystring: z.object({ domain: z.string().trim().max(255).default('') }) },
    },
    async (req) => {
      const domain = req.query.domain.toLowerCase();
      if (!domain) return ok(null);
      const [t] = await s.db
        .select({
          tenantId: tenant.tenantId,
          tenantName: tenant.tenantName,
          domain: tenant.domain,
          backgroundUrl: tenant.backgroundUrl,
        })
        .from(tenant)
        .where(and(eq(tenant.domain, domain), eq(tenant.isDeleted, 0), eq(tenant.status, 1)));
      return ok(t ?? null);
    },
  );
}
