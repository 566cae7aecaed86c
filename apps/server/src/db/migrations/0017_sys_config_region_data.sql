-- Config by region (docs/product.md "Config by region", docs/system-api.md "Config by region").
-- 1. Whether a region is still used by a config entry of any tenant, for the region removal: regions are global but
--    the entries are tenant rows under row-level security, so this one function looks across tenants (it runs as its
--    owner, the migrating role) and answers nothing but the first region code of the list still in use, or null.
CREATE OR REPLACE FUNCTION atrium_region_used_by_config(p_codes text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT c.region_code::text FROM sys_config_region c
  WHERE c.is_deleted = 0 AND c.region_code IN (SELECT json_array_elements_text(p_codes::json))
  LIMIT 1
$$;
--> statement-breakpoint
-- 2. Databases seeded before the screen existed (a fresh database gets all of it from the seed): the dictionary of
--    config types, the screen's menu below each system menu with its buttons, granted to every administrator role.
--    Ids follow db/ids.ts (milliseconds since 2020 above bit 22, worker 1023, then a sequence kept apart from the
--    other data migrations').
INSERT INTO "dict" ("id", "parent_id", "code", "dict_key", "dict_value", "dict_value_en", "sort", "is_sealed")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3001,
  0, 'sys_config_type', '-1', '区域配置类型', 'Config type', 100, 0
WHERE EXISTS (SELECT 1 FROM "tenant")
  AND NOT EXISTS (SELECT 1 FROM "dict" x WHERE x.code = 'sys_config_type' AND x.parent_id = 0 AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "dict" ("id", "parent_id", "code", "dict_key", "dict_value", "dict_value_en", "sort", "is_sealed")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3010 + e.sort,
  p.id, 'sys_config_type', e.k, e.v, e.en, e.sort, 0
FROM "dict" p
CROSS JOIN (VALUES ('map', '地图', 'Map', 1), ('video', '视频', 'Video', 2), ('sms', '短信', 'SMS', 3),
  ('email', '邮件', 'Email', 4), ('device', '设备接入', 'Device access', 5)) AS e(k, v, en, sort)
WHERE p.code = 'sys_config_type' AND p.parent_id = 0 AND p.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "dict" x WHERE x.parent_id = p.id AND x.dict_key = e.k AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "path", "source", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3100 + row_number() OVER (),
  m.tenant_id, m.id, 'sysconfigregion', '区域配置', 'Config by region', '/system/sysconfigregion', 'ControlOutlined', 15, 1, 0, 1
FROM "menu" m
WHERE m.code = 'system' AND m.parent_id = 0 AND m.category = 1 AND m.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = m.tenant_id AND x.code = 'sysconfigregion' AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3200 + row_number() OVER (),
  s.tenant_id, s.id, b.code, b.name, b.alias, b.sort, 2, 1, 1
FROM "menu" s
CROSS JOIN (VALUES ('sysconfigregion_add', '新增', 'Add', 1), ('sysconfigregion_edit', '修改', 'Edit', 2),
  ('sysconfigregion_delete', '删除', 'Delete', 3), ('sysconfigregion_view', '查看', 'View', 4)) AS b(code, name, alias, sort)
WHERE s.code = 'sysconfigregion' AND s.category = 1 AND s.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = s.tenant_id AND x.code = b.code AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT r.id, m.id, r.tenant_id
FROM "role" r
JOIN "menu" m ON m.is_deleted = 0 AND (m.tenant_id = '000000' OR m.tenant_id = r.tenant_id)
  AND (m.code = 'sysconfigregion' OR m.code LIKE 'sysconfigregion\_%')
WHERE r.role_alias = 'administrator' AND r.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = r.id AND x.menu_id = m.id);
