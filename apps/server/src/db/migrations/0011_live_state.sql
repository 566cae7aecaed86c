-- The live state of an access token (docs/server.md "Live state and cache epochs"), read by the guard on every
-- authenticated request: the session (not revoked, not expired), the user (live, enabled, current roles and
-- department), the tenant (live, enabled, expiry) and the cache epochs of the tenant and of the global scope ('*').
-- A function so that its plan is made once per connection instead of once per request. It sets the tenant context of
-- withTenant() (app.tenant_id and the role atrium_app, so row-level security applies) for the rest of the caller's
-- transaction: the guard calls it alone, so both end with the statement.
CREATE OR REPLACE FUNCTION atrium_live_state(p_sid text, p_user_id bigint, p_tenant_id text, p_now timestamptz)
RETURNS TABLE (
  session_ok boolean,
  user_ok boolean,
  dept_id text,
  must_change boolean,
  role_ids text,
  tenant_ok boolean,
  tenant_expired boolean,
  epoch text,
  global_epoch text
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  PERFORM set_config('app.tenant_id', p_tenant_id, true), set_config('role', 'atrium_app', true);
  RETURN QUERY
  SELECT s.revoked_at IS NULL AND s.expires_at >= p_now,
    u.status = 1,
    u.dept_id::text,
    u.must_change_password = 1,
    (SELECT string_agg(ur.role_id::text, ',' ORDER BY ur.role_id) FROM user_role ur
      JOIN role r ON r.id = ur.role_id AND r.tenant_id = p_tenant_id AND r.is_deleted = 0
      WHERE ur.user_id = u.id AND ur.tenant_id = p_tenant_id),
    t.status = 1,
    t.expire_time < p_now,
    (SELECT c.epoch::text FROM cache_epoch c WHERE c.scope = p_tenant_id),
    (SELECT c.epoch::text FROM cache_epoch c WHERE c.scope = '*')
  FROM auth_session s
    LEFT JOIN "user" u ON u.id = s.user_id AND u.tenant_id = p_tenant_id AND u.is_deleted = 0
    LEFT JOIN tenant t ON t.tenant_id = p_tenant_id AND t.is_deleted = 0
  WHERE s.id = p_sid AND s.user_id = p_user_id AND s.tenant_id = p_tenant_id;
END
$$;
