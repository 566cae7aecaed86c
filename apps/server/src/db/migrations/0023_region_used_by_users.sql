-- Region removal (docs/clients.md "Regions in use"): whether a region is still some user's region (user.region_code)
-- or some client's region (client_info.region_code), in any tenant. Regions are global but users and clients are
-- tenant rows under row-level security, so these functions look across tenants (they run as their owner, the
-- migrating role) and answer one boolean for one code — never which tenant, row or how many.
CREATE OR REPLACE FUNCTION atrium_region_used_by_users(p_code text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT EXISTS (SELECT 1 FROM "user" u WHERE u.is_deleted = 0 AND u.region_code = p_code)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION atrium_region_used_by_clients(p_code text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT EXISTS (SELECT 1 FROM client_info c WHERE c.is_deleted = 0 AND c.region_code = p_code)
$$;
