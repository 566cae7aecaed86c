/**
 * Names a tenant starts with: the platform tenant's own row (docs/system-api.md "Seed") and what every new tenant's
 * provisioning gives its first department's post, administrator role and administrator user. They are data
 * stored in the database, not texts answered per language.
 */
export const platformTenantSeed = { tenantName: '管理组', adminRealName: '管理员' };
export const tenantAdminSeed = { postName: '管理员', roleName: '管理员', realName: '管理员' };
