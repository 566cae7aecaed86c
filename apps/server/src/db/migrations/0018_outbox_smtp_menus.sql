-- The email (SMTP) and outbox screens of the resource group (docs/outbox.md), for databases seeded before they
-- existed: the screens below the 'resource' menu, their buttons, and grants to every role holding the SMS screen.
-- The 'sms' dictionary gets the categories the server accepts (1 outbox only, 2 Aliyun, 3 Tencent Cloud, 4 webhook)
-- where it still holds the first seed's entries. Ids follow db/ids.ts (worker 1023 below bit 22).
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "path", "source", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + row_number() OVER (),
  g.tenant_id, g.id, s.code, s.name, s.alias, s.path, s.source, s.sort, 1, 0, 1
FROM "menu" g
CROSS JOIN (VALUES ('smtp', '邮件配置', 'Email (SMTP)', '/resource/smtp', 'MailOutlined', 4),
                   ('outbox', '发件箱', 'Outbox', '/resource/outbox', 'InboxOutlined', 5)) AS s(code, name, alias, path, source, sort)
WHERE g.code = 'resource' AND g.category = 1 AND g.parent_id = 0 AND g.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = g.tenant_id AND x.code = s.code AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "menu" ("id", "tenant_id", "parent_id", "code", "name", "alias", "sort", "category", "action", "is_open")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 100 + row_number() OVER (),
  m.tenant_id, m.id, b.code, b.name, b.alias, b.sort, 2, 1, 1
FROM "menu" m
JOIN (VALUES ('smtp', 'smtp_add', '新增', 'Add', 1), ('smtp', 'smtp_edit', '修改', 'Edit', 2),
             ('smtp', 'smtp_delete', '删除', 'Delete', 3), ('smtp', 'smtp_view', '查看', 'View', 4),
             ('smtp', 'smtp_enable', '启用', 'Enable', 5), ('smtp', 'smtp_test', '发送测试邮件', 'Send a test email', 6),
             ('outbox', 'outbox_view', '查看', 'View', 1)) AS b(screen, code, name, alias, sort) ON b.screen = m.code
WHERE m.category = 1 AND m.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "menu" x WHERE x.tenant_id = m.tenant_id AND x.code = b.code AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT DISTINCT rm.role_id, n.id, rm.tenant_id
FROM "menu" sms
JOIN "role_menu" rm ON rm.menu_id = sms.id
JOIN "menu" n ON n.tenant_id = sms.tenant_id AND n.is_deleted = 0
  AND n.code IN ('smtp', 'smtp_add', 'smtp_edit', 'smtp_delete', 'smtp_view', 'smtp_enable', 'smtp_test', 'outbox', 'outbox_view')
WHERE sms.code = 'sms' AND sms.category = 1 AND sms.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = rm.role_id AND x.menu_id = n.id);
--> statement-breakpoint
UPDATE "dict" SET "dict_value" = '仅发件箱', "dict_value_en" = 'Outbox only' WHERE "code" = 'sms' AND "dict_key" = '1' AND "dict_value" = '云片';
--> statement-breakpoint
UPDATE "dict" SET "dict_value" = '阿里云', "dict_value_en" = 'Aliyun' WHERE "code" = 'sms' AND "dict_key" = '2' AND "dict_value" = '七牛云';
--> statement-breakpoint
UPDATE "dict" SET "dict_value" = '腾讯云', "dict_value_en" = 'Tencent Cloud' WHERE "code" = 'sms' AND "dict_key" = '3' AND "dict_value" = '阿里云';
--> statement-breakpoint
UPDATE "dict" SET "dict_value" = 'HTTP 回调', "dict_value_en" = 'HTTP webhook' WHERE "code" = 'sms' AND "dict_key" = '4' AND "dict_value" = '腾讯云';
