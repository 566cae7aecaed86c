import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { apiScope, dataScope, dept, menu, role, roleScope } from '../db/schema/index.ts';
import { regionPrefix, valueOfKind, type ValueKind } from './paging.ts';
import { subtree } from './tree.ts';
import type { Services } from './services.ts';
import { withTenant } from './tenant-db.ts';
import type { AuthContext } from './tokens.ts';

export const PLATFORM_TENANT = '000000';
export const ADMIN_ROLE = 'administrator';
const roleKey = (roleIds: string[]) => [...roleIds].sort().join(',');

/** Aliases of the caller's live roles (cached per tenant; role writes clear the tenant). */
export async function roleAliases(s: Services, tenantId: string, roleIds: string[]): Promise<string[]> {
  if (!roleIds.length) return [];
  return s.cache.get(tenantId, `aliases:${roleKey(roleIds)}`, () =>
    withTenant(s.db, tenantId, (tx) =>
      tx
        .select({ alias: role.roleAlias })
        .from(role)
        .where(and(eq(role.tenantId, tenantId), eq(role.isDeleted, 0), inArray(role.id, roleIds)))
        .then((rows) => rows.map((r) => r.alias)),
    ),
  );
}

/** A tenant's administrator role sees every row of its tenant (data scope "all"). */
export async function isTenantAdmin(s: Services, auth: AuthContext): Promise<boolean> {
  return (await roleAliases(s, auth.tenantId, auth.roleIds)).includes(ADMIN_ROLE);
}

/** The platform administrator: role administrator in tenant 000000. Manages tenants, OAuth clients, platform menus, params, system dicts. */
export async function isPlatformAdmin(s: Services, auth: AuthContext): Promise<boolean> {
  return auth.tenantId === PLATFORM_TENANT && isTenantAdmin(s, auth);
}

/** An API scope: a path pattern and method, bounded by the codes of its menu's subtree. */
type ApiRule = { path: string; method: string; codes: string[] };

/**
 * The API scopes granted to the caller's roles. A route is open to a holder of its menu code, or of an API scope
 * that matches the method and path **and** belongs to a menu whose subtree holds the route's code — so an API
 * scope never reaches beyond the menu it was defined on (and granters can only grant scopes of menus they hold).
 */
export async function apiRules(s: Services, tenantId: string, roleIds: string[]): Promise<ApiRule[]> {
  if (!roleIds.length) return [];
  return s.cache.get(tenantId, `api-scopes:${roleKey(roleIds)}`, () =>
    withTenant(s.db, tenantId, async (tx) => {
      const rules = await tx
        .selectDistinct({ path: apiScope.scopePath, method: apiScope.scopeMethod, menuId: apiScope.menuId })
        .from(roleScope)
        .innerJoin(
          apiScope,
          and(eq(apiScope.id, roleScope.scopeId), eq(apiScope.isDeleted, 0), eq(apiScope.tenantId, tenantId)),
        )
        .where(
          and(eq(roleScope.tenantId, tenantId), eq(roleScope.scopeCategory, 2), inArray(roleScope.roleId, roleIds)),
        );
      if (!rules.length) return [];
      const menus = await tx
        .select({ id: menu.id, parentId: menu.parentId, code: menu.code })
        .from(menu)
        .where(and(eq(menu.isDeleted, 0), or(eq(menu.tenantId, PLATFORM_TENANT), eq(menu.tenantId, tenantId))));
      const codeOf = new Map(menus.map((m) => [m.id, m.code]));
      return rules.map((r) => ({
        path: r.path,
        method: r.method,
        codes: [...subtree(menus, [r.menuId])].map((id) => codeOf.get(id)!).filter(Boolean),
      }));
    }),
  );
}

export function apiRuleMatches(rules: ApiRule[], method: string, path: string, wanted: string[]): boolean {
  return rules.some((r) => {
    if (r.method !== '*' && r.method.toUpperCase() !== method.toUpperCase()) return false;
    if (!wanted.some((c) => r.codes.includes(c))) return false;
    return r.path.endsWith('*') ? path.startsWith(r.path.slice(0, -1)) : path === r.path;
  });
}

/** How a resource's rows map to owners and departments, for data scopes (docs/system-api.md "Permissions"). */
export type ScopeResource = {
  /** resource_code of data_scope rows, e.g. 'user', 'dept'. */
  code: string;
  /** Column holding the creating user ("own records"). */
  owner: PgColumn;
  /** Column holding the department the row belongs to ("own department", "and below"). */
  dept: PgColumn;
  /** Column holding the row's region code, for "own region and below" (type 6); a resource without one matches none. */
  region?: PgColumn;
  /** Column holding the row's client (客户), for "own client" (type 7, a client account); none → matches none. */
  client?: PgColumn;
  /**
   * Columns holding the first n digits of the region code (stored generated columns), by n: a region admin of an
   * n-digit region is then `column = code`, which an index of `(tenant_id, column, <list order>)` serves in the
   * list's order (docs/server.md "Region prefix columns"); other lengths use `starts_with` on `region`.
   */
  regionPrefixes?: Partial<Record<number, PgColumn>>;
  /** Columns a custom rule (type 5) may name: the resource's filter allowlist, each with the kind of its values. */
  columns: Record<string, { column: PgColumn; kind: ValueKind }>;
};

declare module './services.ts' {
  interface Registry {
    /**
     * Resources that have data scopes, with the columns a custom rule may name and their kinds (filled by the CRUD
     * factory, read by the scope module; docs/server.md "Registries").
     */
    scopeResources: Map<string, Record<string, ValueKind>>;
    /**
     * A bound resource's data scope by its code, as its list applies it (a condition on its table, undefined = every
     * row): filled by the CRUD factory, read by modules that aggregate another's rows (reports, docs/reports.md).
     */
    scopeReaders?: Map<string, (auth: AuthContext) => Promise<SQL | undefined>>;
  }
}

/**
 * The placeholders a custom rule may use in place of an id: the caller's own user, department, and — for a client
 * account — client (客户).
 */
export const SCOPE_PLACEHOLDERS = ['${userId}', '${deptId}', '${clientInfoId}'];

/**
 * The values of a custom rule (a comma list) read as the column's kind; a placeholder stands for an id only.
 * `bad` names the first value that does not fit, which the scope module refuses when a rule is saved.
 */
export function customValues(
  kind: ValueKind,
  raw: string | null,
): { values: (string | number | Date)[]; bad?: undefined } | { bad: string } {
  const values: (string | number | Date)[] = [];
  for (const v of (raw ?? '').split(',').map((x) => x.trim())) {
    if (!v) continue;
    if (SCOPE_PLACEHOLDERS.includes(v)) {
      if (kind !== 'id') return { bad: v };
      values.push(v);
      continue;
    }
    const value = valueOfKind(v, kind);
    if (value === undefined) return { bad: v };
    values.push(value);
  }
  return { values };
}

export const SCOPE_TYPES = {
  all: 1,
  own: 2,
  ownDept: 3,
  ownDeptAndBelow: 4,
  custom: 5,
  ownRegionAndBelow: 6,
  ownClient: 7,
} as const;

type Rule = { scopeType: number; scopeColumn: string | null; scopeValue: string | null };

export async function rulesOf(s: Services, auth: AuthContext, code: string): Promise<Rule[]> {
  if (!auth.roleIds.length) return [];
  return s.cache.get(auth.tenantId, `data-scopes:${roleKey(auth.roleIds)}:${code}`, () =>
    withTenant(s.db, auth.tenantId, (tx) =>
      tx
        .selectDistinct({
          scopeType: dataScope.scopeType,
          scopeColumn: dataScope.scopeColumn,
          scopeValue: dataScope.scopeValue,
        })
        .from(roleScope)
        .innerJoin(
          dataScope,
          and(eq(dataScope.id, roleScope.scopeId), eq(dataScope.isDeleted, 0), eq(dataScope.tenantId, auth.tenantId)),
        )
        .where(
          and(
            eq(roleScope.tenantId, auth.tenantId),
            eq(roleScope.scopeCategory, 1),
            inArray(roleScope.roleId, auth.roleIds),
            eq(dataScope.resourceCode, code),
          ),
        ),
    ),
  );
}

/** Departments at or below `deptId`, by the materialised `ancestors` path ("0,1,5"). */
export const deptAndBelow = (
  tenantId: string,
  deptId: string,
) => sql`(select ${dept.id} from ${dept} where ${dept.tenantId} = ${tenantId}
  and ${dept.isDeleted} = 0 and (${dept.id} = ${deptId} or (',' || ${dept.ancestors} || ',') like ${`%,${deptId},%`}))`;

/**
 * The WHERE a caller's data scope adds for a resource: the union (OR) of their roles' rules; no rule → own department;
 * the tenant administrator → none. `undefined` means every row of the tenant.
 */
export async function dataScopeSql(s: Services, auth: AuthContext, res: ScopeResource): Promise<SQL | undefined> {
  return (await dataScopeOf(s, auth, res)).where;
}

/**
 * What a caller's data scope is, beside its WHERE: every row of the tenant (`all`), the rows of one region and below
 * (`regionPrefix`, a single rule of type 6), or something else (`other`). A list may then take its total from
 * counters kept by region instead of counting rows (CrudSpec `total`).
 */
export type ScopeShape = { all: true } | { all: false; regionPrefix: string | null };

export async function dataScopeOf(
  s: Services,
  auth: AuthContext,
  res: ScopeResource,
): Promise<{ where: SQL | undefined; shape: ScopeShape }> {
  if (await isTenantAdmin(s, auth)) return { where: undefined, shape: { all: true } };
  const rules = await rulesOf(s, auth, res.code);
  const effective: Rule[] = rules.length
    ? rules
    : [{ scopeType: SCOPE_TYPES.ownDept, scopeColumn: null, scopeValue: null }];
  const parts: SQL[] = [];
  for (const r of effective) {
    switch (r.scopeType) {
      case SCOPE_TYPES.all:
        return { where: undefined, shape: { all: true } };
      case SCOPE_TYPES.own:
        parts.push(eq(res.owner, auth.userId));
        break;
      case SCOPE_TYPES.ownDept:
        parts.push(auth.deptId ? eq(res.dept, auth.deptId) : sql`false`);
        break;
      case SCOPE_TYPES.ownDeptAndBelow:
        parts.push(auth.deptId ? sql`${res.dept} in ${deptAndBelow(auth.tenantId, auth.deptId)}` : sql`false`);
        break;
      case SCOPE_TYPES.ownRegionAndBelow:
        // A region code is the prefix of every code below it (GB/T 2260); a user without a region sees none.
        // A leakproof index range, not LIKE: under row-level security LIKE is applied as a filter after the policy,
        // over every row of the tenant (paging.ts `regionPrefix`).
        if (res.region && auth.regionCode && /^\d+$/.test(auth.regionCode)) {
          const prefixColumn = res.regionPrefixes?.[auth.regionCode.length];
          parts.push(prefixColumn ? eq(prefixColumn, auth.regionCode) : regionPrefix(res.region, auth.regionCode));
        } else parts.push(sql`false`);
        break;
      case SCOPE_TYPES.ownClient:
        parts.push(res.client && auth.clientInfoId ? eq(res.client, auth.clientInfoId) : sql`false`);
        break;
      case SCOPE_TYPES.custom: {
        // Checked when saved; a rule that no longer fits its column (saved before the check, or the column changed)
        // matches nothing rather than failing the list.
        const col = r.scopeColumn ? res.columns[r.scopeColumn] : undefined;
        const parsed = col ? customValues(col.kind, r.scopeValue) : undefined;
        const values = parsed?.bad === undefined ? (parsed?.values ?? []) : [];
        const bound = values
          .map((v) =>
            v === '${userId}'
              ? auth.userId
              : v === '${deptId}'
                ? auth.deptId
                : v === '${clientInfoId}'
                  ? (auth.clientInfoId ?? null)
                  : v,
          )
          .filter((v) => v !== null);
        parts.push(col && bound.length ? inArray(col.column, bound) : sql`false`);
        break;
      }
      default:
        parts.push(sql`false`);
    }
  }
  const region =
    effective.length === 1 && effective[0].scopeType === SCOPE_TYPES.ownRegionAndBelow && res.region && auth.regionCode
      ? auth.regionCode
      : null;
  return {
    where: parts.length === 1 ? parts[0] : or(...parts),
    shape: { all: false, regionPrefix: region && /^\d+$/.test(region) ? region : null },
  };
}
