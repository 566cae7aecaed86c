-- The import and export buttons of the region screen (docs/product.md "Regions"), for databases seeded before they
-- existed: added below the platform's region menu, then granted to the roles holding the screen (export) or the
-- right to add regions (import). Ids follow db/ids.ts (milliseconds since 2020 above bit 22, worker 1023 below).
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + row_number() OVER (),
  m.tenant_id, m.id, b.code, b.name, b.alias, b.sort, 2, 1, 1
FROM "menu" m
CROSS JOIN (VALUES ('region_import', '导入', 'Import', 5), ('region_export', '导出', 'Export', 6)) AS b(code, name, alias, sort)
WHERE m.code = 'region' AND m.category = 1 AND m.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = m.tenant_id AND x.code = b.code AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT DISTINCT rm.role_id, b.id, rm.tenant_id
FROM "menu" b
JOIN "menu" screen ON screen.id = b.parent_id AND screen.code = 'region'
JOIN "menu" needed ON needed.tenant_id = screen.tenant_id AND needed.is_deleted = 0
  AND needed.code = CASE b.code WHEN 'region_import' THEN 'region_add' ELSE 'region' END
JOIN "role_menu" rm ON rm.menu_id = needed.id
WHERE b.code IN ('region_import', 'region_export') AND b.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = rm.role_id AND x.menu_id = b.id);
