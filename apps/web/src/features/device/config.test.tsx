import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../i18n';
import { renderScreen } from '../../test-render';
import { get, post } from '../../api/http';
import { useSession } from '../../stores/session';
import CameraDevicePage from './cameradevice.page';
import type { ConfigItem } from './config';
import { fill } from '@atrium/contract';
import { configValueTexts } from '@atrium/contract/resources/device/configtemplateitem';

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const item = (over: Partial<ConfigItem> & Pick<ConfigItem, 'itemKey' | 'itemName' | 'valueType'>): ConfigItem => ({
  defaultValue: null,
  options: null,
  unit: null,
  min: null,
  max: null,
  required: 0,
  ...over,
});
const ITEMS: ConfigItem[] = [
  item({
    itemKey: 'frameRate',
    itemName: 'Frame rate',
    valueType: 'number',
    min: 1,
    max: 60,
    unit: 'fps',
    defaultValue: '25',
    required: 1,
  }),
  item({ itemKey: 'codec', itemName: 'Codec', valueType: 'enum', options: 'H264,H265', defaultValue: 'H264' }),
  item({ itemKey: 'osd', itemName: 'OSD', valueType: 'boolean', defaultValue: 'true' }),
  item({ itemKey: 'title', itemName: 'Title', valueType: 'string' }),
];
const CAM = {
  id: '12',
  deviceCode: '11010100001310000002',
  name: 'Lobby cam',
  deviceType: '131',
  regionCode: '110101',
  status: 0,
  version: 3,
  configTemplateId: 't1',
  configValues: '{"frameRate":30}',
  effectiveConfig: { frameRate: 30, codec: 'H264', osd: true },
};

const mount = () => renderScreen(<CameraDevicePage />);

beforeEach(async () => {
  const codes = ['cameradevice_add', 'cameradevice_edit', 'cameradevice_delete', 'cameradevice_view'];
  useSession.setState({ permission: Object.fromEntries(codes.map((c) => [c, true])) });
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string, params?: object) => {
    if (url.endsWith('/cameraDevice/pageList')) return { records: [CAM], total: 1, size: 10, current: 1, pages: 1 };
    if (url.endsWith('/cameraDevice/detail')) return CAM;
    if (url.endsWith('/cameraDevice/configItems'))
      return (params as { templateId?: string } | undefined)?.templateId === 't1' ? ITEMS : [];
    if (url.endsWith('/configtemplate/options')) return [{ id: 't1', name: 'Standard' }];
    return [];
  });
  await i18n.changeLanguage('en');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

/** Opens a row's dialog (Edit / View) and waits for the config items. */
async function openRow(action: 'Edit' | 'View') {
  mount();
  const row = (await screen.findByText('Lobby cam', {}, { timeout: 10_000 })).closest('tr')!;
  fireEvent.click(within(row).getByText(action));
  return screen.findByRole('dialog', {}, { timeout: 10_000 });
}

/** The block of one config item (its label, control and message line). */
const itemBox = (dialog: HTMLElement, name: string) =>
  within(dialog).getByText(name, { selector: 'label' }).closest('.atrium-config-item') as HTMLElement;

describe('camera config form', () => {
  it('draws one control per item of the chosen template, by type, with required marks and defaults', async () => {
    const dialog = await openRow('Edit');
    const rate = (await within(dialog).findByLabelText(/Frame rate/, {}, { timeout: 10_000 })) as HTMLInputElement;
    expect(rate.getAttribute('role')).toBe('spinbutton');
    expect(rate.value).toBe('30');
    expect(within(itemBox(dialog, 'Frame rate')).getByText('*')).toBeTruthy();
    expect(within(itemBox(dialog, 'Frame rate')).getByText('From 1 to 60')).toBeTruthy();
    expect(within(dialog).getByLabelText('Codec').getAttribute('role')).toBe('combobox');
    expect(within(itemBox(dialog, 'Codec')).getByText('Default H264')).toBeTruthy();
    const osd = within(dialog).getByLabelText('OSD');
    expect(osd.getAttribute('role')).toBe('switch');
    expect(osd.getAttribute('aria-checked')).toBe('true');
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).type).toBe('text');
    expect(within(itemBox(dialog, 'Title')).queryByText('*')).toBeNull();
    // The JSON text area is gone.
    expect(within(dialog).queryByText('Config values (JSON)')).toBeNull();
  }, 60_000);

  it('says on the item what is wrong with a number, and shows the server’s refusal on the item it names', async () => {
    const dialog = await openRow('Edit');
    const rate = await within(dialog).findByLabelText(/Frame rate/, {}, { timeout: 10_000 });
    fireEvent.change(rate, { target: { value: '500' } });
    const box = itemBox(dialog, 'Frame rate');
    expect(await within(box).findByText('Config item "Frame rate" must be between 1 and 60')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Submit/ }));
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(mockPost).not.toHaveBeenCalled();

    fireEvent.change(rate, { target: { value: '50' } });
    await waitFor(() => expect(within(box).queryByText(/must be between/)).toBeNull());
    const refusal = 'Config item "Codec" must be one of: H264, H265';
    mockPost.mockRejectedValue({
      response: { status: 400, data: { code: 400, msg: refusal, data: [{ field: 'configValues', message: refusal }] } },
    });
    fireEvent.click(screen.getByRole('button', { name: /Submit/ }));
    expect(await within(itemBox(dialog, 'Codec')).findByText(refusal)).toBeTruthy();
  }, 60_000);

  it('refuses before sending what the server refuses: the contract’s rules, not a copy of them', async () => {
    // A value kept from before the template changed: 265 stored as a number, now an option of an enum (text).
    const stored = { ...CAM, configValues: '{"frameRate":30,"codec":265}' };
    const items = ITEMS.map((i) => (i.itemKey === 'codec' ? { ...i, options: 'H264,265' } : i));
    mockGet.mockImplementation(async (url: string, params?: object) => {
      if (url.endsWith('/cameraDevice/pageList'))
        return { records: [stored], total: 1, size: 10, current: 1, pages: 1 };
      if (url.endsWith('/cameraDevice/detail')) return stored;
      if (url.endsWith('/cameraDevice/configItems'))
        return (params as { templateId?: string } | undefined)?.templateId === 't1' ? items : [];
      if (url.endsWith('/configtemplate/options')) return [{ id: 't1', name: 'Standard' }];
      return [];
    });
    const dialog = await openRow('Edit');
    await within(dialog).findByLabelText(/Frame rate/, {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: /Submit/ }));
    const text = fill(configValueTexts.configOption, { name: 'Codec', options: 'H264, 265' }).en;
    expect(await within(itemBox(dialog, 'Codec')).findByText(text)).toBeTruthy();
    expect(mockPost).not.toHaveBeenCalled();
  }, 60_000);

  it('sends the values typed as the JSON text configValues', async () => {
    mockPost.mockResolvedValue({});
    const dialog = await openRow('Edit');
    const rate = await within(dialog).findByLabelText(/Frame rate/, {}, { timeout: 10_000 });
    fireEvent.change(rate, { target: { value: '50' } });
    fireEvent.click(within(dialog).getByLabelText('OSD'));
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Gate' } });
    fireEvent.click(screen.getByRole('button', { name: /Submit/ }));
    await waitFor(() => expect(mockPost).toHaveBeenCalled());
    const [url, body] = mockPost.mock.calls[0] as [string, Record<string, unknown>];
    expect(url).toBe('/api/blade-device-access/cameraDevice/submit');
    expect(typeof body.configValues).toBe('string');
    expect(JSON.parse(body.configValues as string)).toEqual({ frameRate: 50, osd: false, title: 'Gate' });
    expect(body).not.toHaveProperty('effectiveConfig');
  }, 60_000);

  it('loads the items of the template chosen in the add dialog', async () => {
    mount();
    fireEvent.click(await screen.findByRole('button', { name: /Add/ }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Choose a config template to set its items here')).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByLabelText('Config template'));
    fireEvent.click(await screen.findByTitle('Standard'));
    expect(await within(dialog).findByLabelText(/Frame rate/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(mockGet).toHaveBeenCalledWith('/api/blade-device-access/cameraDevice/configItems', { templateId: 't1' }, {});
  }, 60_000);

  it('shows the effective config in the view: value and whether it is the default', async () => {
    const dialog = await openRow('View');
    expect(await within(dialog).findByText('Effective config', {}, { timeout: 10_000 })).toBeTruthy();
    const row = async (name: string) =>
      (await within(dialog).findByText(name, { selector: 'th, th *' })).closest('tr') as HTMLElement;
    const rate = await row('Frame rate');
    expect(within(rate).getByText('30 fps')).toBeTruthy();
    expect(within(rate).getByText('Set on the device')).toBeTruthy();
    const codec = await row('Codec');
    expect(within(codec).getByText('H264')).toBeTruthy();
    expect(within(codec).getByText('Default')).toBeTruthy();
    expect(within(await row('OSD')).getByText('Yes')).toBeTruthy();
    expect(within(await row('Title')).getByText('Not set')).toBeTruthy();
  }, 60_000);
});
