import { user, type BodyOf } from '@atrium/contract';
import { call } from './call';

export const getInfo = () => call(user.info);
export const updateInfo = (body: BodyOf<typeof user.updateInfo>) => call(user.updateInfo, { body });
export const updatePassword = (body: BodyOf<typeof user.updatePassword>) => call(user.updatePassword, { body });
export type GuestApplication = BodyOf<typeof user.registerGuest>;
export const registerGuest = (body: GuestApplication) =>
  call(user.registerGuest, { body }, { meta: { isToken: false } });
