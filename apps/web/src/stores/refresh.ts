import { website } from '@atrium/contract';

/** docs/product.md "States": refresh once the token is at least tokenTime seconds old and no refresh is in flight. */
export function shouldRefresh(
  tokenDatetime: number | undefined,
  now: number,
  isRefreshing: boolean,
  tokenTime = website.tokenTime,
): boolean {
  if (!tokenDatetime || isRefreshing) return false;
  return (now - tokenDatetime) / 1000 >= tokenTime;
}
