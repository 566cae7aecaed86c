-- The live state held in memory (docs/server.md "Live state and cache epochs"): every write that changes what
-- atrium_live_state answers tells the servers, by NOTIFY on the channel atrium_live from a trigger in the writing
-- transaction (delivered at its commit, never for a rolled-back one). Payloads: `s:<session id>` (a session changed),
-- `u:<user id>` (a user or their role memberships), `t:<tenant id>` (a tenant, or a role of it), `e:<scope>:<epoch>`
-- (a cache epoch moved), `x` (rows removed wholesale: forget everything).
CREATE FUNCTION atrium_live_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('atrium_live', 'x');
  ELSIF TG_TABLE_NAME = 'auth_session' THEN
    PERFORM pg_notify('atrium_live', 's:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'user' THEN
    PERFORM pg_notify('atrium_live', 'u:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'user_role' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('atrium_live', 'u:' || OLD.user_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('atrium_live', 'u:' || NEW.user_id); END IF;
  ELSIF TG_TABLE_NAME IN ('role', 'tenant') THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('atrium_live', 't:' || OLD.tenant_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('atrium_live', 't:' || NEW.tenant_id); END IF;
  ELSIF TG_TABLE_NAME = 'cache_epoch' THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM pg_notify('atrium_live', 'x');
    ELSE
      PERFORM pg_notify('atrium_live', 'e:' || NEW.scope || ':' || NEW.epoch);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER atrium_live AFTER UPDATE OR DELETE ON auth_session FOR EACH ROW EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live AFTER UPDATE OR DELETE ON "user" FOR EACH ROW EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live AFTER INSERT OR UPDATE OR DELETE ON user_role FOR EACH ROW EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live AFTER INSERT OR UPDATE OR DELETE ON role FOR EACH ROW EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live AFTER INSERT OR UPDATE OR DELETE ON tenant FOR EACH ROW EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live AFTER INSERT OR UPDATE OR DELETE ON cache_epoch FOR EACH ROW EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live_truncate AFTER TRUNCATE ON auth_session FOR EACH STATEMENT EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live_truncate AFTER TRUNCATE ON "user" FOR EACH STATEMENT EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live_truncate AFTER TRUNCATE ON user_role FOR EACH STATEMENT EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live_truncate AFTER TRUNCATE ON role FOR EACH STATEMENT EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live_truncate AFTER TRUNCATE ON tenant FOR EACH STATEMENT EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
CREATE TRIGGER atrium_live_truncate AFTER TRUNCATE ON cache_epoch FOR EACH STATEMENT EXECUTE FUNCTION atrium_live_event();
--> statement-breakpoint
-- The live state also answers when the session ends and when the tenant expires (milliseconds since 1970, as text),
-- so that a server answering from memory sees them pass. The return type changes: dropped and made again.
DROP FUNCTION IF EXISTS atrium_live_state(text, bigint, text, timestamptz);
--> statement-breakpoint
CREATE FUNCTION atrium_live_state(p_sid text, p_user_id bigint, p_tenant_id text, p_now timestamptz)
RETURNS TABLE (
  session_ok boolean,
  user_ok boolean,
  dept_id text,
  region_code text,
  client_info_id text,
  must_change boolean,
  role_ids text,
  tenant_ok boolean,
  tenant_expired boolean,
  epoch text,
  global_epoch text,
  session_expires text,
  tenant_expires text
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  PERFORM set_config('app.tenant_id', p_tenant_id, true), set_config('role', 'atrium_app', true);
  RETURN QUERY
  SELECT s.revoked_at IS NULL AND s.expires_at >= p_now,
    u.status = 1,
    u.dept_id::text,
    u.region_code::text,
    u.client_info_id::text,
    u.must_change_password = 1,
    (SELECT string_agg(ur.role_id::text, ',' ORDER BY ur.role_id) FROM user_role ur
      JOIN role r ON r.id = ur.role_id AND r.tenant_id = p_tenant_id AND r.is_deleted = 0
      WHERE ur.user_id = u.id AND ur.tenant_id = p_tenant_id),
    t.status = 1,
    t.expire_time < p_now,
    (SELECT c.epoch::text FROM cache_epoch c WHERE c.scope = p_tenant_id),
    (SELECT c.epoch::text FROM cache_epoch c WHERE c.scope = '*'),
    floor(extract(epoch FROM s.expires_at) * 1000)::bigint::text,
    floor(extract(epoch FROM t.expire_time) * 1000)::bigint::text
  FROM auth_session s
    LEFT JOIN "user" u ON u.id = s.user_id AND u.tenant_id = p_tenant_id AND u.is_deleted = 0
    LEFT JOIN tenant t ON t.tenant_id = p_tenant_id AND t.is_deleted = 0
  WHERE s.id = p_sid AND s.user_id = p_user_id AND s.tenant_id = p_tenant_id;
END
$$;
