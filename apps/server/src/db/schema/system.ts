import { sql } from 'drizzle-orm';
import { date, index, integer, pgPolicy, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, idColumn, ts } from './columns.ts';
import { declareGlobal, pgTable, tenantPolicy, tenantPredicate, tenantTable } from './tables.ts';

const live = sql`is_deleted = 0`;

declareGlobal('tenant', 'the tenants themselves (tenant_id is their own key); managed by the platform administrator');
export const tenant = pgTable(
  'tenant',
  {
    id: idColumn('id').primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    tenantName: varchar('tenant_name', { length: 50 }).notNull(),
    domain: varchar('domain', { length: 255 }),
    backgroundUrl: varchar('background_url', { length: 1000 }),
    linkman: varchar('linkman', { length: 20 }),
    contactNumber: varchar('contact_number', { length: 20 }),
    address: varchar('address', { length: 255 }),
    accountNumber: integer('account_number').notNull().default(-1),
    expireTime: ts('expire_time'),
    /** The data source holding the tenant's rows (docs/tenants.md "Moving a tenant"); null: the main database. */
    datasourceId: idColumn('datasource_id'),
    /** The mover's token while the tenant's rows are moved between databases: its requests are refused meanwhile. */
    moveState: varchar('move_state', { length: 16 }),
    /**
     * While a move runs: the database a move that died now would have left a copy of the tenant's rows in (the
     * one the binding does not name; null: the main database). Recovery deletes them there (docs/tenants.md
     * "A move that dies").
     */
    moveOtherId: idColumn('move_other_id'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('tenant_tenant_id_uq').on(t.tenantId).where(live),
    uniqueIndex('tenant_domain_uq')
      .on(t.domain)
      .where(sql`is_deleted = 0 and domain is not null and domain <> ''`),
  ],
);

/** OAuth clients ("client" in docs/system-api.md). Secrets are random and high-entropy, so a SHA-256 digest is enough to store. */
declareGlobal('oauth_client', 'OAuth clients are platform-wide; checked before any tenant is known');
export const oauthClient = pgTable(
  'oauth_client',
  {
    id: idColumn('id').primaryKey(),
    clientId: varchar('client_id', { length: 48 }).notNull(),
    clientSecretHash: varchar('client_secret_hash', { length: 128 }).notNull(),
    scope: varchar('scope', { length: 255 }).notNull().default('all'),
    authorizedGrantTypes: varchar('authorized_grant_types', { length: 255 }).notNull(),
    webServerRedirectUri: varchar('web_server_redirect_uri', { length: 255 }),
    accessTokenValidity: integer('access_token_validity').notNull().default(3000),
    refreshTokenValidity: integer('refresh_token_validity').notNull().default(604800),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('oauth_client_client_id_uq').on(t.clientId).where(live)],
);

export const dept = tenantTable(
  'dept',
  {
    parentId: idColumn('parent_id').notNull().default('0'),
    ancestors: text('ancestors').notNull().default('0'),
    deptCategory: integer('dept_category').notNull().default(1),
    deptName: varchar('dept_name', { length: 45 }).notNull(),
    fullName: varchar('full_name', { length: 45 }),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [index('dept_tenant_parent_idx').on(t.tenantId, t.parentId)],
);

export const post = tenantTable(
  'post',
  {
    category: integer('category').notNull().default(1),
    postCode: varchar('post_code', { length: 12 }).notNull(),
    postName: varchar('post_name', { length: 64 }).notNull(),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [uniqueIndex('post_code_uq').on(t.tenantId, t.postCode).where(live)],
);

export const role = tenantTable(
  'role',
  {
    parentId: idColumn('parent_id').notNull().default('0'),
    roleName: varchar('role_name', { length: 255 }).notNull(),
    roleAlias: varchar('role_alias', { length: 255 }).notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('role_alias_uq').on(t.tenantId, t.roleAlias).where(live)],
);

export const user = tenantTable(
  'user',
  {
    code: varchar('code', { length: 12 }),
    userType: integer('user_type').notNull().default(1),
    account: varchar('account', { length: 45 }).notNull(),
    password: varchar('password', { length: 255 }).notNull(),
    name: varchar('name', { length: 20 }),
    realName: varchar('real_name', { length: 10 }),
    avatar: varchar('avatar', { length: 500 }),
    email: varchar('email', { length: 45 }),
    phone: varchar('phone', { length: 45 }),
    birthday: date('birthday', { mode: 'string' }),
    sex: smallint('sex'),
    deptId: idColumn('dept_id').references(() => dept.id),
    postId: idColumn('post_id').references(() => post.id),
    oauthId: varchar('oauth_id', { length: 64 }),
    /** A reset or first password must be replaced at the next login. */
    mustChangePassword: smallint('must_change_password').notNull().default(0),
    /** Platform extension of the account (update-platform): free-form JSON text. */
    userExt: text('user_ext'),
    /** The user's region (GB/T 2260 code): data scope "own region and below" (docs/product.md "Roles"). */
    regionCode: varchar('region_code', { length: 12 }),
    /**
     * The client (客户) a client account belongs to (userType 2, docs/clients.md): the placeholder `${clientInfoId}`
     * of custom data scopes. Set only by the approval that creates the account.
     */
    clientInfoId: idColumn('client_info_id'),
  },
  (t) => [
    uniqueIndex('user_account_uq').on(t.tenantId, t.account).where(live),
    index('user_tenant_dept_idx').on(t.tenantId, t.deptId),
    // The user page: newest first within a tenant (scanned backwards; a DESC NULLS LAST key would not serve ORDER BY id DESC).
    index('user_tenant_id_idx').on(t.tenantId, t.id).where(live),
  ],
);

export const userRole = pgTable(
  'user_role',
  {
    userId: idColumn('user_id')
      .notNull()
      .references(() => user.id),
    roleId: idColumn('role_id')
      .notNull()
      .references(() => role.id),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_role_role_idx').on(t.roleId), tenantPolicy()],
);

export const menu = pgTable(
  'menu',
  {
    id: idColumn('id').primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull().default('000000'),
    parentId: idColumn('parent_id').notNull().default('0'),
    code: varchar('code', { length: 255 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    alias: varchar('alias', { length: 255 }),
    path: varchar('path', { length: 255 }),
    source: varchar('source', { length: 255 }),
    sort: integer('sort').notNull().default(0),
    category: integer('category').notNull().default(1),
    action: integer('action').notNull().default(0),
    isOpen: integer('is_open').notNull().default(1),
    remark: varchar('remark', { length: 255 }),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('menu_code_uq').on(t.tenantId, t.code).where(live),
    index('menu_parent_idx').on(t.parentId),
    // Every tenant reads the platform's menus (000000) beside its own; it writes only its own.
    pgPolicy('menu_read', { for: 'select', to: 'public', using: sql`${tenantPredicate} or tenant_id = '000000'` }),
    pgPolicy('menu_write', { for: 'all', to: 'public', using: tenantPredicate, withCheck: tenantPredicate }),
  ],
);

export const roleMenu = pgTable(
  'role_menu',
  {
    roleId: idColumn('role_id')
      .notNull()
      .references(() => role.id),
    menuId: idColumn('menu_id')
      .notNull()
      .references(() => menu.id),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] }), tenantPolicy()],
);

export const topMenu = tenantTable(
  'top_menu',
  {
    code: varchar('code', { length: 255 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    source: varchar('source', { length: 255 }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('top_menu_code_uq').on(t.tenantId, t.code).where(live)],
);

export const topMenuSetting = pgTable(
  'top_menu_setting',
  {
    topMenuId: idColumn('top_menu_id')
      .notNull()
      .references(() => topMenu.id),
    menuId: idColumn('menu_id')
      .notNull()
      .references(() => menu.id),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.topMenuId, t.menuId] }), tenantPolicy()],
);

const dictColumns = () => ({
  id: idColumn('id').primaryKey(),
  parentId: idColumn('parent_id').notNull().default('0'),
  code: varchar('code', { length: 255 }).notNull(),
  dictKey: varchar('dict_key', { length: 255 }),
  dictValue: varchar('dict_value', { length: 255 }).notNull(),
  /** The entry's name in English (answered to English requests; the Chinese name when empty). */
  dictValueEn: varchar('dict_value_en', { length: 255 }),
  sort: integer('sort').notNull().default(0),
  remark: varchar('remark', { length: 255 }),
  isSealed: smallint('is_sealed').notNull().default(0),
  ...auditColumns(),
});

/** System dictionaries are global (platform-managed); business dictionaries belong to a tenant. */
declareGlobal('dict', 'system dictionaries are platform-managed and read by every tenant');
export const dict = pgTable('dict', { ...dictColumns() }, (t) => [
  uniqueIndex('dict_code_key_uq').on(t.code, t.parentId, t.dictKey).where(live),
]);
export const dictBiz = pgTable(
  'dict_biz',
  { ...dictColumns(), tenantId: varchar('tenant_id', { length: 12 }).notNull() },
  (t) => [
    uniqueIndex('dict_biz_code_key_uq').on(t.tenantId, t.code, t.parentId, t.dictKey).where(live),
    tenantPolicy(),
  ],
);

/** System parameters are platform-wide settings (password policy, tenant defaults). */
declareGlobal('param', 'system parameters are platform-wide settings');
export const param = pgTable(
  'param',
  {
    id: idColumn('id').primaryKey(),
    paramName: varchar('param_name', { length: 255 }).notNull(),
    paramKey: varchar('param_key', { length: 255 }).notNull(),
    paramValue: text('param_value').notNull(),
    remark: varchar('remark', { length: 255 }),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('param_key_uq').on(t.paramKey).where(live)],
);

/**
 * A data scope: which rows of a resource (`resourceCode`, e.g. 'user', 'dept') a role sees. Types: 1 all, 2 own records,
 * 3 own department, 4 own department and below, 5 custom (a column of the resource's allowlist and a value list).
 */
export const dataScope = tenantTable(
  'data_scope',
  {
    menuId: idColumn('menu_id')
      .notNull()
      .references(() => menu.id),
    resourceCode: varchar('resource_code', { length: 64 }).notNull(),
    scopeName: varchar('scope_name', { length: 255 }).notNull(),
    scopeType: integer('scope_type').notNull(),
    scopeColumn: varchar('scope_column', { length: 64 }),
    scopeValue: varchar('scope_value', { length: 2000 }),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [index('data_scope_tenant_resource_idx').on(t.tenantId, t.resourceCode)],
);

/** An API scope: grants calling the API paths matching `scopePath` (a trailing `*` matches any rest) with `scopeMethod`. */
export const apiScope = tenantTable(
  'api_scope',
  {
    menuId: idColumn('menu_id')
      .notNull()
      .references(() => menu.id),
    resourceCode: varchar('resource_code', { length: 64 }).notNull(),
    scopeName: varchar('scope_name', { length: 255 }).notNull(),
    scopePath: varchar('scope_path', { length: 255 }).notNull(),
    scopeMethod: varchar('scope_method', { length: 8 }).notNull().default('*'),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [index('api_scope_tenant_idx').on(t.tenantId)],
);

/** Role → data scope (category 1) or API scope (category 2) grants. */
export const roleScope = pgTable(
  'role_scope',
  {
    roleId: idColumn('role_id')
      .notNull()
      .references(() => role.id),
    scopeId: idColumn('scope_id').notNull(),
    scopeCategory: smallint('scope_category').notNull(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.scopeId] }),
    index('role_scope_tenant_idx').on(t.tenantId),
    tenantPolicy(),
  ],
);
