import { create } from 'zustand';
import type { TokenResponse, UserInfo } from '@atrium/contract';
import { getEntry, getStore, removeStore, setStore } from './storage';
import { resetTags } from './tags';
import { useMenu } from './menu';
import { clearLock } from './settings';

type Session = {
  token: string;
  refreshToken: string;
  tenantId: string;
  userInfo: (Partial<UserInfo> & { account?: string }) | null;
  roles: string[];
  permission: Record<string, boolean>;
  /** The user came from the external map application (docs/product.md "Users and tenants"): the top bar offers 'return to application'. */
  fromMap: boolean;
  mapReturnUrl: string;
  mustChangePassword: boolean;
  isRefreshing: boolean;
  login(res: TokenResponse): void;
  setUserInfo(info: UserInfo): void;
  setPermission(codes: string[]): void;
  setRefreshing(v: boolean): void;
  setFromMap(url: string): void;
  logoutLocal(): void;
};

export const tokenDatetime = () => getEntry<string>({ name: 'token' })?.datetime;

export const useSession = create<Session>((set) => ({
  token: getStore<string>({ name: 'token' }) ?? '',
  refreshToken: getStore<string>({ name: 'refreshToken' }) ?? '',
  tenantId: getStore<string>({ name: 'tenantId' }) ?? '',
  userInfo: getStore<Session['userInfo']>({ name: 'userInfo' }) ?? null,
  roles: getStore<string[]>({ name: 'roles' }) ?? [],
  permission: getStore<Record<string, boolean>>({ name: 'permission' }) ?? {},
  fromMap: !!getStore<boolean>({ name: 'fromMap' }),
  mapReturnUrl: getStore<string>({ name: 'mapReturnUrl' }) ?? '',
  mustChangePassword: !!getStore<boolean>({ name: 'mustChangePassword' }),
  isRefreshing: false,

  login(res) {
    const userInfo = {
      id: res.user_id,
      tenantId: res.tenant_id,
      account: res.account,
      name: res.nick_name,
      realName: res.real_name,
      avatar: res.avatar,
      roleName: res.role_name,
      deptId: res.dept_id,
      postId: res.post_id,
    };
    const roles = res.role_name ? res.role_name.split(',') : [];
    setStore({ name: 'token', content: res.access_token });
    setStore({ name: 'refreshToken', content: res.refresh_token });
    setStore({ name: 'tenantId', content: res.tenant_id });
    setStore({ name: 'userInfo', content: userInfo });
    setStore({ name: 'roles', content: roles });
    setStore({ name: 'mustChangePassword', content: !!res.must_change_password });
    set({
      token: res.access_token,
      refreshToken: res.refresh_token,
      tenantId: res.tenant_id,
      userInfo,
      roles,
      mustChangePassword: !!res.must_change_password,
    });
  },
  setUserInfo(info) {
    setStore({ name: 'userInfo', content: info });
    setStore({ name: 'roles', content: info.roles });
    // The same roles keep their array: whatever depends on them (the shell's menu load) is not run again.
    set((state) => ({ userInfo: info, roles: sameList(state.roles, info.roles) ? state.roles : info.roles }));
  },
  setPermission(codes) {
    const permission = Object.fromEntries(codes.map((c) => [c, true]));
    setStore({ name: 'permission', content: permission });
    set({ permission });
  },
  setRefreshing(v) {
    set({ isRefreshing: v });
  },
  setFromMap(url) {
    setStore({ name: 'fromMap', content: true });
    setStore({ name: 'mapReturnUrl', content: url });
    set({ fromMap: true, mapReturnUrl: url });
  },
  logoutLocal() {
    for (const name of [
      'token',
      'refreshToken',
      'userInfo',
      'roles',
      'permission',
      'mustChangePassword',
      'fromMap',
      'mapReturnUrl',
    ])
      removeStore({ name });
    useMenu.getState().reset();
    resetTags();
    clearLock();
    set({
      token: '',
      refreshToken: '',
      userInfo: null,
      roles: [],
      permission: {},
      fromMap: false,
      mapReturnUrl: '',
      mustChangePassword: false,
      isRefreshing: false,
    });
  },
}));

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
