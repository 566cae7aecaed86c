DROP INDEX "audit_log_tenant_idx";--> statement-breakpoint
DROP INDEX "error_log_tenant_idx";--> statement-breakpoint
CREATE INDEX "audit_log_tenant_entity_idx" ON "audit_log" USING btree ("tenant_id","entity","create_time","id");--> statement-breakpoint
CREATE INDEX "audit_log_tenant_user_idx" ON "audit_log" USING btree ("tenant_id","user_id","create_time","id");--> statement-breakpoint
CREATE INDEX "audit_log_tenant_entity_user_idx" ON "audit_log" USING btree ("tenant_id","entity","user_id","create_time","id");--> statement-breakpoint
CREATE INDEX "audit_log_tenant_idx" ON "audit_log" USING btree ("tenant_id","create_time","id");--> statement-breakpoint
CREATE INDEX "error_log_tenant_idx" ON "error_log" USING btree ("tenant_id","create_time","id");--> statement-breakpoint
-- hand-written:
-- The log screens below 系统管理 (docs/server.md "Log viewers") for databases seeded before them (a fresh database gets them
-- from db/seed-data/menus.ts), granted to the administrator role of every tenant that holds 系统管理, as a fresh
-- tenant's administrator gets every menu of its package. Ids follow db/ids.ts (worker 1023, a sequence kept apart
-- from the other data migrations'). A second run changes nothing.
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "path", "source", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 4200 + row_number() OVER (),
  g.tenant_id, g.id, s.code, s.name, s.alias, s.path, s.source, s.sort, 1, 0, 1
FROM "menu" g
CROSS JOIN (VALUES ('auditlog', '审计日志', 'Audit log', '/system/auditlog', 'FileSearchOutlined', 16),
                   ('errorlog', '错误日志', 'Error log', '/system/errorlog', 'BugOutlined', 17))
  AS s(code, name, alias, path, source, sort)
WHERE g.code = 'system' AND g.category = 1 AND g.parent_id = 0 AND g.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = g.tenant_id AND x.code = s.code AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT DISTINCT r.id, n.id, r.tenant_id
FROM "role" r
JOIN "role_menu" rm ON rm.role_id = r.id
JOIN "menu" g ON g.id = rm.menu_id AND g.code = 'system' AND g.category = 1 AND g.is_deleted = 0
JOIN "menu" n ON n.parent_id = g.id AND n.code IN ('auditlog', 'errorlog') AND n.is_deleted = 0
WHERE r.role_alias = 'administrator' AND r.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = r.id AND x.menu_id = n.id);
