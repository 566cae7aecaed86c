import { create } from 'zustand';
import { DEFAULT_COLOUR, DEFAULT_LANGUAGE, DEFAULT_THEME, type Language } from '@atrium/contract';
import { getStore, removeStore, setStore } from './storage';
import { screenClass } from './screen';

type Settings = {
  language: Language;
  theme: string;
  colour: string;
  collapse: boolean;
  screen: 0 | 1 | 2 | 3;
  isFullscreen: boolean;
  isLocked: boolean;
  /** The screen locked last (path and query): the guard sends an unlocked /lock there. */
  lockedFrom: string;
  lockPasswordHash: string;
  showSearch: boolean;
  /** The sidebar drawer of a phone-sized screen (class 0); not kept, a phone always starts with it closed. */
  menuOpen: boolean;
  setLanguage(l: Language): void;
  setTheme(t: string): void;
  setColour(c: string): void;
  toggleCollapse(): void;
  setScreen(width: number): void;
  setFullscreen(v: boolean): void;
  setLockPassword(hash: string): void;
  /** Locks the console; `from` is the screen locked, where unlocking returns. */
  lock(from?: string): void;
  unlock(): void;
  setShowSearch(v: boolean): void;
  setMenuOpen(v: boolean): void;
};

export const useSettings = create<Settings>((set) => ({
  language: getStore<Language>({ name: 'language' }) ?? DEFAULT_LANGUAGE,
  theme: getStore<string>({ name: 'themeName' }) ?? DEFAULT_THEME,
  colour: getStore<string>({ name: 'colorName' }) ?? DEFAULT_COLOUR,
  collapse: !!getStore<boolean>({ name: 'isCollapse' }),
  screen: screenClass(typeof window === 'undefined' ? 1200 : window.innerWidth),
  isFullscreen: false,
  isLocked: !!getStore<boolean>({ name: 'isLock' }),
  lockedFrom: getStore<string>({ name: 'lockedFrom' }) ?? '',
  lockPasswordHash: getStore<string>({ name: 'lockPasswd' }) ?? '',
  showSearch: false,
  menuOpen: false,
  setLanguage(language) {
    setStore({ name: 'language', content: language });
    set({ language });
  },
  setTheme(theme) {
    setStore({ name: 'themeName', content: theme });
    set({ theme });
  },
  setColour(colour) {
    setStore({ name: 'colorName', content: colour });
    set({ colour });
  },
  toggleCollapse() {
    set((s) => {
      setStore({ name: 'isCollapse', content: !s.collapse });
      return { collapse: !s.collapse };
    });
  },
  setScreen(width) {
    // Crossing a breakpoint closes the drawer: it is an overlay only on the smallest class.
    set((s) => {
      const screen = screenClass(width);
      return screen === s.screen ? {} : { screen, menuOpen: false };
    });
  },
  setFullscreen(isFullscreen) {
    set({ isFullscreen });
  },
  setLockPassword(hash) {
    setStore({ name: 'lockPasswd', content: hash, type: true });
    set({ lockPasswordHash: hash });
  },
  lock(from) {
    const lockedFrom = from && from !== '/lock' ? from : '';
    setStore({ name: 'lockedFrom', content: lockedFrom, type: true });
    setStore({ name: 'isLock', content: true, type: true });
    set({ isLocked: true, lockedFrom });
  },
  unlock() {
    // The lock screen, now unlocked, is sent to `lockedFrom` by the guard (app/guard.ts): no navigation of its own
    // could race that redirect.
    removeStore({ name: 'isLock' });
    set({ isLocked: false });
  },
  setShowSearch(showSearch) {
    set({ showSearch });
  },
  setMenuOpen(menuOpen) {
    set({ menuOpen });
  },
}));

/** The lock (flag and password) ends on login and logout. */
export function clearLock() {
  removeStore({ name: 'isLock' });
  removeStore({ name: 'lockedFrom' });
  removeStore({ name: 'lockPasswd' });
  useSettings.setState({ isLocked: false, lockPasswordHash: '' });
}

/** Only a SHA-256 of the lock password is kept. */
export async function hashLockPassword(password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`atrium-lock:${password}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
