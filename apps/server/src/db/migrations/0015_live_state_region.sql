-- The live state (docs/server.md "Live state and cache epochs") also answers the user's region and client (客户):
-- data scope "own region and below" and the `${clientInfoId}` placeholder act on them as they are now. The return
-- type changes, so the function is dropped and made again.
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
    u.region_code::text,
    u.client_info_id::text,
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
--> statement-breakpoint
-- Data scope types 6 (own region and below) and 7 (own client) in the dictionary of databases seeded before them.
INSERT INTO "dict" ("id", "parent_id", "code", "dict_key", "dict_value", "dict_value_en", "sort", "is_sealed")
SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1577836800000) << 22) + (1023 << 12) + v.sort,
  p.id, 'data_scope_type', v.k, v.zh, v.en, v.sort, 0
FROM "dict" p
CROSS JOIN (VALUES ('6', '本区域及以下', 'Own region and below', 6), ('7', '本客户', 'Own client', 7)) AS v(k, zh, en, sort)
WHERE p.code = 'data_scope_type' AND p.parent_id = 0 AND p.is_deleted = 0
  AND NOT EXISTS (SELECT 1 FROM "dict" x WHERE x.code = 'data_scope_type' AND x.dict_key = v.k AND x.is_deleted = 0);
