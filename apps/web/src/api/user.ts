import type { UserInfo } from '@atrium/contract';
import { get, post } from './http';

export const getInfo = () => get<UserInfo>('/api/blade-user/info');
export const updateInfo = (body: Partial<Pick<UserInfo, 'avatar' | 'name' | 'realName' | 'phone' | 'email'>>) =>
  post<UserInfo>('/api/blade-user/update-info', body);
export const updatePassword = (body: { oldPassword: string; newPassword: string; newPassword1: string }) =>
  post<boolean>('/api/blade-user/update-password', body);
export type GuestApplication = { tenantId: string; name: string; account: string; password: string; oauthId: string };
export const registerGuest = (body: GuestApplication) =>
  post<boolean>('/api/blade-user/register-guest', body, { meta: { isToken: false } });
