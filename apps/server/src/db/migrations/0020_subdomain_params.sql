-- Sub-domains (docs/subdomains.md): the two parameters, for databases seeded before them (a fresh database gets them
-- from the seed, db/seed-data/params.ts). Ids follow db/ids.ts (milliseconds since 2020 above bit 22, worker 1023,
-- then a sequence kept apart from the other data migrations').
INSERT INTO "param" ("id", "param_name", "param_key", "param_value", "remark")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3101,
  '子域名基础域名', 'subdomain.base', 'atrium.localhost', '子域名为 <名称>.<基础域名>；租户设置了自己的域名时使用租户域名'
WHERE EXISTS (SELECT 1 FROM "tenant")
  AND NOT EXISTS (SELECT 1 FROM "param" x WHERE x.param_key = 'subdomain.base' AND x.is_deleted = 0);
--> statement-breakpoint
INSERT INTO "param" ("id", "param_name", "param_key", "param_value", "remark")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + 3102,
  '子域名绑定设备上限', 'subdomain.bindLimit', '10', '新申请的子域名的绑定上限'
WHERE EXISTS (SELECT 1 FROM "tenant")
  AND NOT EXISTS (SELECT 1 FROM "param" x WHERE x.param_key = 'subdomain.bindLimit' AND x.is_deleted = 0);
