export type RegisterForm = {
  tenantId?: string;
  name?: string;
  account?: string;
  password?: string;
  password2?: string;
};

/** docs/product.md "Validation": checked in this order; the first failing check's message key, or null. */
export function registerProblem(f: RegisterForm): string | null {
  if (!f.tenantId?.trim()) return 'register.needTenant';
  if (!f.account?.trim()) return 'register.needAccount';
  if (!f.password || !f.password2) return 'register.needPassword';
  if (f.password !== f.password2) return 'register.mismatch';
  return null;
}
