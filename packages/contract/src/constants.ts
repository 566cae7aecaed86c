/** Business constants of docs/product.md "Constants" and the site configuration of docs/product.md "Records". */
export const website = {
  title: 'Atrium',
  tenantMode: true,
  defaultTenantId: '000000',
  captchaMode: true,
  tokenTime: 3000,
  tokenHeader: 'Blade-Auth',
  firstPage: '/wel/index',
  lockPage: '/lock',
  menu: { label: 'name', path: 'path', icon: 'source', children: 'children' },
  clientId: 'saber',
  clientSecret: 'saber_secret',
  keyPrefix: 'atrium-',
} as const;

export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const HTTP_TIMEOUT_MS = 50_000;
export const STATUS_RANGE = [200, 500] as const;
export const LOG_BADGE_MAX = 99;
export const CHUNK_TIMEOUT_MS = 120_000;
export const DEFAULT_COLOUR = '#409EFF';
export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh';
export const THEMES = [
  'default',
  'white',
  'dark',
  'star',
  'smart',
  'iview',
  'vip',
  'cool',
  'd2',
  'hey',
  'lte',
] as const;
export type ThemeName = (typeof THEMES)[number];
export const DEFAULT_THEME = 'theme-default';
export const BREAKPOINTS = { sm: 768, md: 992, lg: 1200 } as const;
export const NOTICE = { width: 350, listHeight: 300, pageDelayMs: 1000 } as const;
export const AVATAR = { maxBytes: 500 * 1024, types: ['image/jpeg', 'image/png'] } as const;
export const ID_CARD_LENGTH = 18;
export const PHONE_LENGTH = 11;
export const IS_SEALED = { no: 0, yes: 1 } as const;
export const DICT_UI = { dialogWidth: 880, parentMenuWidth: 250, childMenuWidth: 300 } as const;
export const REFRESH_CHECK_MS = 10_000;
export const LOCK_DELAY_MS = 100;
export const DROPDOWN_OPEN_MS = 200;
export const DATE_RANGE_FIELDS = { after: 'createTime_dategt', before: 'createTime_datelt' } as const;
