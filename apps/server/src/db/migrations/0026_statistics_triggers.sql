-- Statistics counters (docs/devices.md "Statistics"): kept by statement-level triggers on camera_device and
-- nvr_channel, in the same transaction as the change. Each statement's transition tables are aggregated per key, so
-- one insert of a million rows is one upsert per (tenant, district, device type), and an update that moves nothing
-- (a rename, a heartbeat's last_seen) nets to zero and touches no counter. The functions run as the caller: under
-- row-level security (app.tenant_id set by withTenant) a statement only ever holds rows of that tenant, which the
-- counter policy accepts. Keys are upserted in order (fewer lock-order deadlocks between concurrent statements).
CREATE OR REPLACE FUNCTION atrium_stat_device_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stat_device_counter AS c (tenant_id, district, device_type, total, online)
    SELECT n.tenant_id, left(n.region_code, 6), n.device_type, count(*), count(*) FILTER (WHERE n.status = 1)
    FROM stat_new n WHERE n.is_deleted = 0
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, district, device_type)
      DO UPDATE SET total = c.total + excluded.total, online = c.online + excluded.online;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO stat_device_counter AS c (tenant_id, district, device_type, total, online)
    SELECT o.tenant_id, left(o.region_code, 6), o.device_type, -count(*), -count(*) FILTER (WHERE o.status = 1)
    FROM stat_old o WHERE o.is_deleted = 0
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, district, device_type)
      DO UPDATE SET total = c.total + excluded.total, online = c.online + excluded.online;
  ELSE
    INSERT INTO stat_device_counter AS c (tenant_id, district, device_type, total, online)
    SELECT d.tenant_id, d.district, d.device_type, sum(d.total), sum(d.online)
    FROM (
      SELECT n.tenant_id, left(n.region_code, 6) AS district, n.device_type, 1 AS total, (n.status = 1)::int AS online
      FROM stat_new n WHERE n.is_deleted = 0
      UNION ALL
      SELECT o.tenant_id, left(o.region_code, 6), o.device_type, -1, -((o.status = 1)::int)
      FROM stat_old o WHERE o.is_deleted = 0
    ) d
    GROUP BY 1, 2, 3 HAVING sum(d.total) <> 0 OR sum(d.online) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, district, device_type)
      DO UPDATE SET total = c.total + excluded.total, online = c.online + excluded.online;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atrium_stat_channel_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stat_channel_counter AS c (tenant_id, district, total)
    SELECT n.tenant_id, coalesce(left(n.region_code, 6), ''), count(*)
    FROM stat_new n WHERE n.is_deleted = 0
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, district) DO UPDATE SET total = c.total + excluded.total;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO stat_channel_counter AS c (tenant_id, district, total)
    SELECT o.tenant_id, coalesce(left(o.region_code, 6), ''), -count(*)
    FROM stat_old o WHERE o.is_deleted = 0
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, district) DO UPDATE SET total = c.total + excluded.total;
  ELSE
    INSERT INTO stat_channel_counter AS c (tenant_id, district, total)
    SELECT d.tenant_id, d.district, sum(d.total)
    FROM (
      SELECT n.tenant_id, coalesce(left(n.region_code, 6), '') AS district, 1 AS total
      FROM stat_new n WHERE n.is_deleted = 0
      UNION ALL
      SELECT o.tenant_id, coalesce(left(o.region_code, 6), ''), -1
      FROM stat_old o WHERE o.is_deleted = 0
    ) d
    GROUP BY 1, 2 HAVING sum(d.total) <> 0 ORDER BY 1, 2
    ON CONFLICT (tenant_id, district) DO UPDATE SET total = c.total + excluded.total;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stat_device_insert AFTER INSERT ON camera_device
  REFERENCING NEW TABLE AS stat_new FOR EACH STATEMENT EXECUTE FUNCTION atrium_stat_device_apply();
--> statement-breakpoint
CREATE TRIGGER stat_device_update AFTER UPDATE ON camera_device
  REFERENCING OLD TABLE AS stat_old NEW TABLE AS stat_new FOR EACH STATEMENT EXECUTE FUNCTION atrium_stat_device_apply();
--> statement-breakpoint
CREATE TRIGGER stat_device_delete AFTER DELETE ON camera_device
  REFERENCING OLD TABLE AS stat_old FOR EACH STATEMENT EXECUTE FUNCTION atrium_stat_device_apply();
--> statement-breakpoint
CREATE TRIGGER stat_channel_insert AFTER INSERT ON nvr_channel
  REFERENCING NEW TABLE AS stat_new FOR EACH STATEMENT EXECUTE FUNCTION atrium_stat_channel_apply();
--> statement-breakpoint
CREATE TRIGGER stat_channel_update AFTER UPDATE ON nvr_channel
  REFERENCING OLD TABLE AS stat_old NEW TABLE AS stat_new FOR EACH STATEMENT EXECUTE FUNCTION atrium_stat_channel_apply();
--> statement-breakpoint
CREATE TRIGGER stat_channel_delete AFTER DELETE ON nvr_channel
  REFERENCING OLD TABLE AS stat_old FOR EACH STATEMENT EXECUTE FUNCTION atrium_stat_channel_apply();
--> statement-breakpoint
-- Rows written before the triggers existed (none on a new database): the counters from one aggregate.
INSERT INTO stat_device_counter (tenant_id, district, device_type, total, online)
SELECT tenant_id, left(region_code, 6), device_type, count(*), count(*) FILTER (WHERE status = 1)
FROM camera_device WHERE is_deleted = 0 GROUP BY 1, 2, 3
ON CONFLICT (tenant_id, district, device_type) DO UPDATE SET total = excluded.total, online = excluded.online;
--> statement-breakpoint
INSERT INTO stat_channel_counter (tenant_id, district, total)
SELECT tenant_id, coalesce(left(region_code, 6), ''), count(*)
FROM nvr_channel WHERE is_deleted = 0 GROUP BY 1, 2
ON CONFLICT (tenant_id, district) DO UPDATE SET total = excluded.total;
