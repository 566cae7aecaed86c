CREATE TABLE "datasource" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"url" varchar(512) NOT NULL,
	"username" varchar(63) NOT NULL,
	"password_sealed" text,
	"remark" varchar(255),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenant" ADD COLUMN "datasource_id" bigint;--> statement-breakpoint
ALTER TABLE "tenant" ADD COLUMN "move_state" varchar(16);--> statement-breakpoint
CREATE UNIQUE INDEX "datasource_name_uq" ON "datasource" USING btree ("name") WHERE is_deleted = 0;--> statement-breakpoint
-- hand-written:
-- 数据源管理 below the platform's 系统管理 (docs/tenants.md "Data sources") for databases seeded before it (a fresh
-- database gets it from db/seed-data/menus.ts), with its buttons, granted to the platform tenant's administrator role
-- only (a platform-only screen: tenants never get it). Ids follow db/ids.ts (worker 1023, a sequence kept apart from
-- the other data migrations'). A second run changes nothing.
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "path", "source", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 4800,
  g.tenant_id, g.id, 'datasource', '数据源管理', 'Data sources', '/system/datasource', 'DatabaseOutlined', 18, 1, 0, 1
FROM "menu" g
WHERE g.tenant_id = '000000' AND g.code = 'system' AND g.category = 1 AND g.parent_id = 0 AND g.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = '000000' AND x.code = 'datasource' AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "path", "source", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 4810 + b.sort,
  s.tenant_id, s.id, 'datasource_' || b.code, b.name, b.alias, NULL, NULL, b.sort, 2, 1, 1
FROM "menu" s
CROSS JOIN (VALUES ('add', '新增', 'Add', 1), ('edit', '修改', 'Edit', 2), ('delete', '删除', 'Delete', 3),
                   ('view', '查看', 'View', 4), ('test', '测试连接', 'Test connection', 5))
  AS b(code, name, alias, sort)
WHERE s.tenant_id = '000000' AND s.code = 'datasource' AND s.category = 1 AND s.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = '000000' AND x.code = 'datasource_' || b.code AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT r.id, m.id, r.tenant_id
FROM "role" r
JOIN "menu" m ON m.tenant_id = '000000' AND (m.code = 'datasource' OR m.code LIKE 'datasource\_%') AND m.is_deleted = 0
WHERE r.tenant_id = '000000' AND r.role_alias = 'administrator' AND r.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = r.id AND x.menu_id = m.id);
