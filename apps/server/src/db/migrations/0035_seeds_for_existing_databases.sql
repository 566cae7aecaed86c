-- Seed entries of issue 24 for databases seeded before them (a fresh database gets them from the seed):
-- the platform parameter of the origins /myiframe may frame (db/seed-data/params.ts), the 'approval' type of the
-- config by region (separation of duties, docs/clients.md), and the camera networks screen below 设备管理 with its
-- buttons (docs/devices.md "Camera addresses"), granted to every role that holds the device dictionary: its
-- add/edit/delete to roles that may change the dictionary, its view to the others (the region admin reads it).
-- Ids follow db/ids.ts (worker 1023 below bit 22, a sequence kept apart from the other data migrations').
INSERT INTO "param" ("id", "param_name", "param_key", "param_value", "remark")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3501,
  '可嵌入页面的来源', 'frame.allowedOrigins', 'self',
  '控制台 /myiframe 可嵌入的页面来源（如 https://docs.example.com），以空格、逗号或换行分隔；self 为控制台自身，总是允许'
WHERE EXISTS (SELECT 1 FROM "tenant")
  AND NOT EXISTS (SELECT 1 FROM "param" x WHERE x.param_key = 'frame.allowedOrigins' AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "dict" ("id", "parent_id", "code", "dict_key", "dict_value", "dict_value_en", "sort")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3502,
  p.id, 'sys_config_type', 'approval', '审批', 'Approval',
  COALESCE((SELECT max(c.sort) FROM "dict" c WHERE c.parent_id = p.id AND c.is_deleted = 0), 0) + 1
FROM "dict" p
WHERE p.code = 'sys_config_type' AND p.parent_id = 0 AND p.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "dict" x WHERE x.parent_id = p.id AND x.dict_key = 'approval' AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "path", "source", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3510 + row_number() OVER (),
  g.tenant_id, g.id, 'cameranetwork', '摄像机网络', 'Camera networks', '/device/cameranetwork', 'ApartmentOutlined', 5, 1, 0, 1
FROM "menu" g
WHERE g.code = 'device' AND g.category = 1 AND g.parent_id = 0 AND g.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = g.tenant_id AND x.code = 'cameranetwork' AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3600 + row_number() OVER (),
  m.tenant_id, m.id, b.code, b.name, b.alias, b.sort, 2, 1, 1
FROM "menu" m
CROSS JOIN (VALUES ('cameranetwork_add', '新增', 'Add', 1), ('cameranetwork_edit', '修改', 'Edit', 2),
                   ('cameranetwork_delete', '删除', 'Delete', 3), ('cameranetwork_view', '查看', 'View', 4))
  AS b(code, name, alias, sort)
WHERE m.code = 'cameranetwork' AND m.category = 1 AND m.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = m.tenant_id AND x.code = b.code AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT DISTINCT rm.role_id, n.id, rm.tenant_id
FROM "menu" d
JOIN "role_menu" rm ON rm.menu_id = d.id
JOIN "menu" n ON n.tenant_id = d.tenant_id AND n.is_deleted = 0
  AND (n.code IN ('cameranetwork', 'cameranetwork_view')
       OR (n.code IN ('cameranetwork_add', 'cameranetwork_edit', 'cameranetwork_delete')
           AND EXISTS (SELECT 1 FROM "role_menu" w JOIN "menu" wm ON wm.id = w.menu_id
                       WHERE w.role_id = rm.role_id AND wm.code = 'dictioncary_add' AND wm.is_deleted = 0)))
WHERE d.code = 'dictioncary' AND d.category = 1 AND d.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = rm.role_id AND x.menu_id = n.id);
