import { z } from 'zod';
import type { Captcha, MenuNode, TokenResponse, TopMenu, UserInfo } from '../wire.ts';

/**
 * Answer schemas of the shared wire shapes (wire.ts): each is checked against its type, so the two cannot drift.
 */
export const captchaSchema: z.ZodType<Captcha> = z.object({
  key: z.string(),
  image: z.string(),
  required: z.boolean(),
});

export const tokenSchema: z.ZodType<TokenResponse> = z.object({
  access_token: z.string(),
  token_type: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  scope: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  account: z.string(),
  real_name: z.string(),
  nick_name: z.string(),
  avatar: z.string(),
  role_id: z.string(),
  role_name: z.string(),
  dept_id: z.string(),
  post_id: z.string(),
  oauth_id: z.string(),
  client_id: z.string(),
  must_change_password: z.boolean().optional(),
});

export const userInfoSchema: z.ZodType<UserInfo> = z.object({
  id: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  account: z.string(),
  name: z.string(),
  realName: z.string(),
  avatar: z.string(),
  email: z.string(),
  phone: z.string(),
  deptId: z.string(),
  deptName: z.string(),
  postId: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  roles: z.array(z.string()),
  mustChangePassword: z.boolean(),
});

export const menuNodeSchema: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    parentId: z.string(),
    code: z.string(),
    name: z.string(),
    alias: z.string(),
    path: z.string(),
    source: z.string(),
    sort: z.number(),
    category: z.number(),
    action: z.number(),
    isOpen: z.number(),
    remark: z.string(),
    hasChildren: z.boolean(),
    children: z.array(menuNodeSchema),
  }),
);

export const topMenuSchema: z.ZodType<TopMenu> = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  source: z.string().nullable(),
  sort: z.number(),
});

/** A node of a picker tree (menus, departments, roles, regions): id, title, children. */
export type TreeNode = {
  id: string;
  parentId?: string;
  title: string;
  key: string;
  value: string;
  hasChildren?: boolean;
  children?: TreeNode[];
  [extra: string]: unknown;
};
export const treeNodeSchema: z.ZodType<TreeNode> = z.lazy(() =>
  z
    .object({
      id: z.string(),
      parentId: z.string().optional(),
      title: z.string(),
      key: z.string(),
      value: z.string(),
      hasChildren: z.boolean().optional(),
      children: z.array(treeNodeSchema).optional(),
    })
    .catchall(z.unknown()),
);

/** A comma list of ids or an array, as the spec's calls send them. */
export const idsQuery = z.union([z.string(), z.array(z.string())]);
