import { theme as antdTheme, type ThemeConfig } from 'antd';
import { THEMES, type ThemeName } from '@atrium/contract';

/** What makes each of the 11 themes (docs/product.md "Screens and routes") look like itself: the shell's colours, plus antd tokens. */
type Look = {
  sider: string;
  siderText: string;
  header: string;
  headerText: string;
  tags: string;
  content: string;
  radius: number;
  dark?: boolean;
  compact?: boolean;
  font?: string;
};

export const LOOKS: Record<ThemeName, Look> = {
  default: {
    sider: '#20222a',
    siderText: '#c0c4cc',
    header: '#ffffff',
    headerText: '#303133',
    tags: '#ffffff',
    content: '#f0f2f5',
    radius: 6,
  },
  white: {
    sider: '#ffffff',
    siderText: '#303133',
    header: '#ffffff',
    headerText: '#303133',
    tags: '#fafafa',
    content: '#f7f8fa',
    radius: 6,
  },
  dark: {
    sider: '#141414',
    siderText: '#bfbfbf',
    header: '#1f1f1f',
    headerText: '#e8e8e8',
    tags: '#1f1f1f',
    content: '#000000',
    radius: 6,
    dark: true,
  },
  star: {
    sider: 'linear-gradient(180deg,#1e1b4b 0%,#4c1d95 60%,#831843 100%)',
    siderText: '#e9d5ff',
    header: '#312e81',
    headerText: '#f5f3ff',
    tags: '#ede9fe',
    content: '#f5f3ff',
    radius: 10,
  },
  smart: {
    sider: '#0b3d91',
    siderText: '#d6e4ff',
    header: '#0b3d91',
    headerText: '#ffffff',
    tags: '#e6f0ff',
    content: '#eef3fb',
    radius: 4,
  },
  iview: {
    sider: '#515a6e',
    siderText: '#e8eaec',
    header: '#ffffff',
    headerText: '#515a6e',
    tags: '#f5f7f9',
    content: '#f5f7f9',
    radius: 4,
  },
  vip: {
    sider: '#1a1a1a',
    siderText: '#d4af37',
    header: '#1a1a1a',
    headerText: '#d4af37',
    tags: '#2a2a2a',
    content: '#f7f3e8',
    radius: 2,
  },
  cool: {
    sider: 'linear-gradient(180deg,#0f2027 0%,#203a43 50%,#2c5364 100%)',
    siderText: '#a7f3d0',
    header: '#203a43',
    headerText: '#ecfeff',
    tags: '#e0f2f1',
    content: '#ecf7f6',
    radius: 12,
  },
  d2: {
    sider: '#ebf1f6',
    siderText: '#2f4858',
    header: '#ebf1f6',
    headerText: '#2f4858',
    tags: '#ffffff',
    content: '#ffffff',
    radius: 4,
    compact: true,
  },
  hey: {
    sider: '#fff7ed',
    siderText: '#9a3412',
    header: '#ffedd5',
    headerText: '#7c2d12',
    tags: '#fffbeb',
    content: '#fffaf3',
    radius: 16,
    font: '"Trebuchet MS", sans-serif',
  },
  lte: {
    sider: '#222d32',
    siderText: '#b8c7ce',
    header: '#3c8dbc',
    headerText: '#ffffff',
    tags: '#ecf0f5',
    content: '#ecf0f5',
    radius: 0,
  },
};

export const themeName = (cls: string): ThemeName => {
  const n = cls.replace(/^theme-/, '') as ThemeName;
  return (THEMES as readonly string[]).includes(n) ? n : 'default';
};

/** antd ThemeConfig for a theme class and the chosen colour. */
export function antdConfig(cls: string, colour: string): ThemeConfig {
  const look = LOOKS[themeName(cls)];
  const algorithm = [
    look.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    ...(look.compact ? [antdTheme.compactAlgorithm] : []),
  ];
  return {
    algorithm,
    token: { colorPrimary: colour, borderRadius: look.radius, ...(look.font ? { fontFamily: look.font } : {}) },
  };
}

/** Puts `theme-<name>` on <body> and the shell's CSS variables on <html>. */
export function applyTheme(cls: string) {
  const name = themeName(cls);
  const look = LOOKS[name];
  document.body.className = document.body.className
    .split(' ')
    .filter((c) => !c.startsWith('theme-'))
    .concat(`theme-${name}`)
    .join(' ')
    .trim();
  const s = document.documentElement.style;
  s.setProperty('--atrium-sider-bg', look.sider);
  s.setProperty('--atrium-sider-text', look.siderText);
  s.setProperty('--atrium-header-bg', look.header);
  s.setProperty('--atrium-header-text', look.headerText);
  s.setProperty('--atrium-tags-bg', look.tags);
  s.setProperty('--atrium-content-bg', look.content);
  s.setProperty('color-scheme', look.dark ? 'dark' : 'light');
}
