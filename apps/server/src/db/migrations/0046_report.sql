CREATE TABLE "report" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"name" varchar(100) NOT NULL,
	"dataset" varchar(32) NOT NULL,
	"region_code" varchar(12),
	"date_from" date,
	"date_to" date,
	"device_type" varchar(16),
	"columns" varchar(500),
	"chart" varchar(16) DEFAULT 'table' NOT NULL,
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
ALTER TABLE "report" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "report_list_idx" ON "report" USING btree ("tenant_id","create_time" DESC NULLS LAST,"id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "report" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
-- hand-written:
-- Region administrators run reports inside their region (docs/reports.md): for databases seeded before, the 报表管理
-- menus (group, 报表列表 and its buttons) that the same tenant's city administrator holds (its package) are granted
-- to its region administrator, as db/seed-data/roles.ts grants a fresh tenant's. A second run changes nothing.
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT DISTINCT r.id, rm.menu_id, r.tenant_id
FROM "role" r
JOIN "role" c ON c.tenant_id = r.tenant_id AND c.role_alias = 'city_admin' AND c.is_deleted = 0
JOIN "role_menu" rm ON rm.role_id = c.id
JOIN "menu" m ON m.id = rm.menu_id AND m.is_deleted = 0
  AND (m.code IN ('report', 'report_list') OR m.code LIKE 'report\_list\_%')
WHERE r.role_alias = 'region_admin' AND r.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = r.id AND x.menu_id = rm.menu_id);
