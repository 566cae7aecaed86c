import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';

/**
 * The device dictionary's `tree` and `lazy-tree` titles follow the caller's language like `listAll`
 * (docs/devices.md "Dictionary names"): English names in English, the Chinese name where an entry has none.
 */
const BASE = '/api/blade-device-access/dictioncary';
let t: TestApp;
let admin: string;

type Node = { id: string; title: string; children: Node[]; hasChildren: boolean };

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, '762001')).token;
});
afterAll(async () => t?.close());

describe('device dictionary tree titles', () => {
  it('are the English names in English and the Chinese names in Chinese, at every level', async () => {
    const zh = (await client(t, admin).get(`${BASE}/tree`)).json().data as Node[];
    expect(zh.map((n) => n.title)).toEqual(['摄像机', '网络摄像机', '网络视频录像机(NVR)']);
    expect(zh[0].children.map((n) => n.title)).toEqual(['海康威视', '大华', '宇视']);

    const en = (await client(t, admin, 'en').get(`${BASE}/tree`)).json().data as Node[];
    expect(en.map((n) => n.title)).toEqual(['Camera', 'IP camera', 'Network video recorder (NVR)']);
    expect(en[0].children.map((n) => n.title)).toEqual(['Hikvision', 'Dahua', 'Uniview']);
    expect(en[0].children[0].children.map((n) => n.title)).toEqual(['DS-2CD3T47']);

    const roots = (await client(t, admin, 'en').get(`${BASE}/lazy-tree`)).json().data as Node[];
    expect(roots.map((n) => [n.title, n.hasChildren])).toEqual([
      ['Camera', true],
      ['IP camera', true],
      ['Network video recorder (NVR)', true],
    ]);
    const makers = (await client(t, admin, 'en').get(`${BASE}/lazy-tree?parentId=${roots[1].id}`)).json()
      .data as Node[];
    expect(makers.map((n) => n.title)).toEqual(['Hikvision', 'Dahua', 'Uniview']);
    const zhMakers = (await client(t, admin).get(`${BASE}/lazy-tree?parentId=${roots[1].id}`)).json().data as Node[];
    expect(zhMakers.map((n) => n.title)).toEqual(['海康威视', '大华', '宇视']);
  });

  it('keep the Chinese name in English for an entry without an English name', async () => {
    const added = await client(t, admin).post(`${BASE}/submit`, { parentId: '0', code: '199', name: '门禁' });
    expect(added.statusCode).toBe(200);
    const en = (await client(t, admin, 'en').get(`${BASE}/tree`)).json().data as Node[];
    expect(en.map((n) => n.title)).toContain('门禁');
    const named = await client(t, admin).post(`${BASE}/submit`, {
      ...added.json().data,
      nameEn: 'Access control',
    });
    expect(named.statusCode).toBe(200);
    const again = (await client(t, admin, 'en').get(`${BASE}/lazy-tree`)).json().data as Node[];
    expect(again.map((n) => n.title)).toContain('Access control');
    expect(again.map((n) => n.title)).not.toContain('门禁');
  });
});
