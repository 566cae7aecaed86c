import { grants, shell, type AnswerOf } from '@atrium/contract';
import { role } from '@atrium/contract/resources/system/role';
import { call } from './call';
import { get, post } from './http';
import type { TreeNode } from '../components/crud/types';

/** System-management calls beyond the four CRUD ones (docs/system-api.md). */

export type DictEntry = AnswerOf<typeof shell.dictionary>[number];
export const dictionary = (code: string, biz = false) =>
  call(biz ? shell.bizDictionary : shell.dictionary, { query: { code } });

/** The origins the console may frame at /myiframe besides its own (the platform parameter `frame.allowedOrigins`). */
export const frameOrigins = () => call(shell.frameOrigins);

export const fetchTree = (url: string) => get<TreeNode[]>(url);
export const fetchRecords = (url: string) => get<Record<string, unknown>[]>(url);

export type GrantTrees = AnswerOf<typeof grants.roleGrantTree>;
export type GrantKeys = AnswerOf<typeof grants.roleTreeKeys>;

export const menuGrantTree = () => call(grants.roleGrantTree);
export const roleTreeKeys = (roleId: string) => call(grants.roleTreeKeys, { query: { roleIds: roleId } });
export const grantRole = (body: {
  roleIds: string[];
  menuIds: string[];
  dataScopeIds: string[];
  apiScopeIds: string[];
}) => post<boolean>(`${role.base}/grant`, body); // the role resource's grant action (docs/resources.md "Actions")

export const topGrantTree = () => call(grants.topGrantTree);
export const topTreeKeys = (topMenuId: string) => call(grants.topTreeKeys, { query: { topMenuIds: topMenuId } });
export const grantTopMenu = (body: { topMenuIds: string[]; menuIds: string[] }) => call(grants.topMenuGrant, { body });
