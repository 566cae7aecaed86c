import { describe, expect, it } from 'vitest';
import { keepEntry } from './keepAliveCache';

type E = { v: number; scope: string };
const counter = () => {
  let n = 0;
  return () => `tab${++n}-`;
};

describe('kept tabs', () => {
  it('gives each tab its own scope and keeps it while the tab stays open', () => {
    const make = counter();
    const map = new Map<string, E>();
    const open = new Set(['/a', '/b']);
    keepEntry(map, '/a', { v: 1 }, open, 10, make);
    keepEntry(map, '/b', { v: 2 }, open, 10, make);
    keepEntry(map, '/a', { v: 3 }, open, 10, make);
    expect(map.get('/a')).toEqual({ v: 3, scope: 'tab1-' });
    expect(map.get('/b')).toEqual({ v: 2, scope: 'tab2-' });
    // The current tab is the most recent entry.
    expect([...map.keys()]).toEqual(['/b', '/a']);
  });

  it('frees closed tabs (never the current one) and the least recently used beyond the cap', () => {
    const make = counter();
    const map = new Map<string, E>();
    const all = new Set(['/a', '/b', '/c', '/d']);
    for (const k of ['/a', '/b', '/c']) keepEntry(map, k, { v: 0 }, all, 10, make);
    keepEntry(map, '/d', { v: 0 }, new Set(['/a', '/c']), 10, make);
    expect([...map.keys()]).toEqual(['/a', '/c', '/d']);
    keepEntry(map, '/a', { v: 0 }, all, 2, make);
    expect([...map.keys()]).toEqual(['/d', '/a']);
    // A tab opened again after being freed is a new tab with a new scope.
    keepEntry(map, '/c', { v: 0 }, all, 10, make);
    expect(map.get('/c')!.scope).toBe('tab5-');
  });
});
