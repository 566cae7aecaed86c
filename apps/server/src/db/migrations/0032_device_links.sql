-- Camera ↔ NVR channel links and channel status (docs/devices.md "Links between cameras and channels" and "Channel
-- status"). The truth of a link is the camera's (nvr_id, channel_no); nvr_channel.camera_id is derived from it by the
-- triggers below, in the same statement as the change, whatever path writes. nvr_channel.status follows its NVR.
-- The unique index "camera_device_channel_uq" (one live camera per NVR channel) comes with the next migration, after
-- the links of existing databases are reconciled here.

-- 1. Links made on the channel side only (a channel's camera_id with a camera that names no channel) move to the
--    camera, unless another camera already names that channel.
UPDATE camera_device d SET nvr_id = c.nvr_device_id, channel_no = c.channel_no
FROM (
  SELECT DISTINCT ON (ch.tenant_id, ch.camera_id) ch.tenant_id, ch.camera_id, ch.nvr_device_id, ch.channel_no
  FROM nvr_channel ch
  JOIN camera_device n ON n.id = ch.nvr_device_id AND n.tenant_id = ch.tenant_id AND n.is_deleted = 0
    AND n.device_type = '118'
  WHERE ch.is_deleted = 0 AND ch.camera_id IS NOT NULL
  ORDER BY ch.tenant_id, ch.camera_id, ch.id
) c
WHERE d.tenant_id = c.tenant_id AND d.id = c.camera_id AND d.is_deleted = 0 AND d.channel_no IS NULL
  AND d.device_type <> '118'
  AND NOT EXISTS (
    SELECT 1 FROM camera_device o
    WHERE o.tenant_id = c.tenant_id AND o.nvr_id = c.nvr_device_id AND o.channel_no = c.channel_no AND o.is_deleted = 0
  );
--> statement-breakpoint
-- 2. One live camera per channel: of cameras naming the same channel, the oldest keeps it.
UPDATE camera_device d SET channel_no = NULL
FROM (
  SELECT id, row_number() OVER (PARTITION BY tenant_id, nvr_id, channel_no ORDER BY id) AS k
  FROM camera_device WHERE is_deleted = 0 AND nvr_id IS NOT NULL AND channel_no IS NOT NULL
) x
WHERE d.id = x.id AND x.k > 1;
--> statement-breakpoint
-- 3. Every live channel shows the camera that names it, and reads its NVR's status.
UPDATE nvr_channel ch SET camera_id = (
  SELECT d.id FROM camera_device d
  WHERE d.tenant_id = ch.tenant_id AND d.nvr_id = ch.nvr_device_id AND d.channel_no = ch.channel_no AND d.is_deleted = 0
  LIMIT 1
)
WHERE ch.is_deleted = 0;
--> statement-breakpoint
UPDATE nvr_channel ch SET status = CASE WHEN n.status = 1 THEN 1 ELSE 0 END
FROM camera_device n
WHERE n.tenant_id = ch.tenant_id AND n.id = ch.nvr_device_id AND ch.is_deleted = 0
  AND ch.status IS DISTINCT FROM (CASE WHEN n.status = 1 THEN 1 ELSE 0 END);
--> statement-breakpoint
-- A channel's derived columns, before it is written: camera_id = the live camera naming (NVR, number); a new channel
-- reads its NVR's status (online only when the NVR is online). Writing camera_id by hand changes nothing.
CREATE OR REPLACE FUNCTION atrium_channel_derive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_deleted = 0 THEN
    NEW.camera_id := (
      SELECT d.id FROM camera_device d
      WHERE d.tenant_id = NEW.tenant_id AND d.nvr_id = NEW.nvr_device_id AND d.channel_no = NEW.channel_no
        AND d.is_deleted = 0
      LIMIT 1
    );
  END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.status := coalesce((
      SELECT CASE WHEN n.status = 1 AND n.is_deleted = 0 THEN 1 ELSE 0 END FROM camera_device n
      WHERE n.tenant_id = NEW.tenant_id AND n.id = NEW.nvr_device_id
    ), 0);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER channel_derive_insert BEFORE INSERT ON nvr_channel
  FOR EACH ROW EXECUTE FUNCTION atrium_channel_derive();
--> statement-breakpoint
CREATE TRIGGER channel_derive_update BEFORE UPDATE OF camera_id ON nvr_channel
  FOR EACH ROW EXECUTE FUNCTION atrium_channel_derive();
--> statement-breakpoint
-- A camera's link changed (set, moved, cleared, the camera removed): the channel that showed it shows nothing, the
-- channel it names now shows it. Only rows whose link columns changed fire (heartbeats never do).
CREATE OR REPLACE FUNCTION atrium_camera_link_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE nvr_channel SET camera_id = NULL
    WHERE tenant_id = OLD.tenant_id AND camera_id = OLD.id AND is_deleted = 0
      AND (NEW.is_deleted <> 0 OR NEW.nvr_id IS NULL OR NEW.channel_no IS NULL
        OR nvr_device_id <> NEW.nvr_id OR channel_no <> NEW.channel_no);
  END IF;
  IF NEW.is_deleted = 0 AND NEW.nvr_id IS NOT NULL AND NEW.channel_no IS NOT NULL THEN
    UPDATE nvr_channel SET camera_id = NEW.id
    WHERE tenant_id = NEW.tenant_id AND nvr_device_id = NEW.nvr_id AND channel_no = NEW.channel_no
      AND is_deleted = 0 AND camera_id IS DISTINCT FROM NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER camera_link_insert AFTER INSERT ON camera_device
  FOR EACH ROW WHEN (NEW.channel_no IS NOT NULL) EXECUTE FUNCTION atrium_camera_link_apply();
--> statement-breakpoint
CREATE TRIGGER camera_link_update AFTER UPDATE OF nvr_id, channel_no, is_deleted ON camera_device
  FOR EACH ROW WHEN (OLD.nvr_id IS DISTINCT FROM NEW.nvr_id OR OLD.channel_no IS DISTINCT FROM NEW.channel_no
    OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted)
  EXECUTE FUNCTION atrium_camera_link_apply();
--> statement-breakpoint
-- An NVR's status changed (device access's batch, the offline sweep, disable / enable): its live channels read
-- online (1) when it is online, offline (0) otherwise — one statement per statement of camera_device, no round trip.
CREATE OR REPLACE FUNCTION atrium_channel_status_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE nvr_channel c SET status = x.st
  FROM (
    SELECT n.tenant_id, n.id, CASE WHEN n.status = 1 AND n.is_deleted = 0 THEN 1 ELSE 0 END AS st
    FROM follow_new n JOIN follow_old o ON o.id = n.id
    WHERE n.device_type = '118' AND (n.status IS DISTINCT FROM o.status OR n.is_deleted <> o.is_deleted)
  ) x
  WHERE c.tenant_id = x.tenant_id AND c.nvr_device_id = x.id AND c.is_deleted = 0 AND c.status IS DISTINCT FROM x.st;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER channel_status_follow AFTER UPDATE ON camera_device
  REFERENCING OLD TABLE AS follow_old NEW TABLE AS follow_new
  FOR EACH STATEMENT EXECUTE FUNCTION atrium_channel_status_follow();
