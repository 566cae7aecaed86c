import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { approval } from '@atrium/contract/resources/customer/approval';
import i18n from '../../i18n';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';
import CrudPage from './CrudPage';
import ResourcePage from './ResourcePage';
import { registerResourceTexts, resourceSchema } from './fromDefinition';
import type { CrudSchema } from './types';
import { dict } from '@atrium/contract/resources/system/dict';
import { menu } from '@atrium/contract/resources/system/menu';
import { renderScreen } from '../../test-render.tsx';

// Fixture labels: the texts of two definitions.
registerResourceTexts(dict);
registerResourceTexts(menu);

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const ROW = { id: '1', referType: 'client', referId: '9', title: 'ACME', status: 0, version: 1 };

beforeEach(async () => {
  // The user holds every code, 新增 included: the definition alone takes the button away.
  const codes = ['approval_add', 'approval_edit', 'approval_delete', 'approval_view', 'thing_add', 'thing_view'];
  useSession.setState({ permission: Object.fromEntries(codes.map((c) => [c, true])) });
  mockGet.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/dictionary')) return [];
    if (url.endsWith('/list')) return { records: [ROW], total: 1, size: 10, current: 1, pages: 1 };
    if (url.endsWith('/lazy-list')) return [{ ...ROW, hasChildren: false }];
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

const addButton = () => screen.queryByRole('button', { name: /新\s*增/ });

describe('create: false', () => {
  it('is carried from the definition into the schema', () => {
    expect(approval.create).toBe(false);
    expect(resourceSchema(approval).create).toBe(false);
  });

  it('leaves 新增 out of the toolbar of such a resource, whatever codes the user holds', async () => {
    renderScreen(<ResourcePage def={approval} />);
    await screen.findByText('ACME', {}, { timeout: 10_000 });
    expect(addButton()).toBeNull();
    // The rest of the toolbar and the row buttons stay.
    expect(screen.getAllByRole('button', { name: /删\s*除/ }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('button', { name: /编\s*辑/ }).length).toBeGreaterThan(0);
  }, 20_000);

  it('still offers 新增 to a resource that may be created', async () => {
    const schema: CrudSchema = {
      base: '/api/test/thing',
      title: 'dict:label',
      codes: { add: 'thing_add', edit: 'thing_edit', delete: 'thing_delete', view: 'thing_view' },
      fields: [{ name: 'title', label: 'dict:fields.dictValue.label' }],
    };
    renderScreen(<CrudPage schema={schema} />);
    await screen.findByText('ACME', {}, { timeout: 10_000 });
    expect(addButton()).toBeTruthy();
  }, 20_000);

  it('offers no 新增子项 in a tree of such a resource', async () => {
    const schema: CrudSchema = {
      base: '/api/test/thing',
      title: 'dict:label',
      codes: { add: 'thing_add', edit: 'thing_edit', delete: 'thing_delete', view: 'thing_view' },
      fields: [{ name: 'title', label: 'dict:fields.dictValue.label' }],
      tree: { lazy: true },
      create: false,
    };
    renderScreen(<CrudPage schema={schema} />);
    await screen.findByText('ACME', {}, { timeout: 10_000 });
    expect(addButton()).toBeNull();
    expect(screen.queryByRole('button', { name: /新增子项/ })).toBeNull();
  }, 20_000);
});
