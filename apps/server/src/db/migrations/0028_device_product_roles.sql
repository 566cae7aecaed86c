-- The product roles and the device screens (docs/devices.md "Roles"; db/seed-data/roles.ts), for databases seeded
-- before the devices were built: region admins keep the device dictionary and config templates read only (they are
-- the whole tenant's), and leaders read cameras and NVR channels — within what the tenant's administrator holds.
DELETE FROM "role_menu" rm USING "role" r, "menu" m
WHERE rm.role_id = r.id AND rm.menu_id = m.id AND r.role_alias = 'region_admin'
  AND m.code IN ('dictioncary_add', 'dictioncary_edit', 'dictioncary_delete',
                 'configtemplate_add', 'configtemplate_edit', 'configtemplate_delete',
                 'configtemplateitem_add', 'configtemplateitem_edit', 'configtemplateitem_delete');
--> statement-breakpoint
INSERT INTO "role_menu" ("role_id", "menu_id", "tenant_id")
SELECT DISTINCT l.id, m.id, l.tenant_id
FROM "role" l
JOIN "role" a ON a.tenant_id = l.tenant_id AND a.role_alias = 'administrator' AND a.is_deleted = 0
JOIN "role_menu" am ON am.role_id = a.id
JOIN "menu" m ON m.id = am.menu_id AND m.is_deleted = 0
  AND m.code IN ('device', 'cameradevice', 'cameradevice_view', 'nvrchannelinfo', 'nvrchannelinfo_view')
WHERE l.role_alias = 'leader_admin' AND l.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "role_menu" x WHERE x.role_id = l.id AND x.menu_id = m.id);
