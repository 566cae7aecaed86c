import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import i18n from '../../i18n';
import { renderScreen } from '../../test-render';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';
import { resourceSchema } from '../../components/crud/fromDefinition';
import CameraDevicePage from './cameradevice.page';

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const NVR = {
  id: '11',
  deviceCode: '11010100001180000001',
  name: 'Gate NVR',
  deviceType: '118',
  status: 1,
  version: 1,
};
const CAM = {
  id: '12',
  deviceCode: '11010100001310000002',
  name: 'Lobby cam',
  deviceType: '131',
  status: 0,
  version: 1,
};

const mount = () => renderScreen(<CameraDevicePage />);

beforeEach(async () => {
  const codes = ['cameradevice_add', 'cameradevice_edit', 'cameradevice_delete', 'cameradevice_view', 'nvrchannelinfo'];
  useSession.setState({ permission: Object.fromEntries(codes.map((c) => [c, true])) });
  mockGet.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/cameraDevice/pageList'))
      return { records: [NVR, CAM], total: 2, size: 10, current: 1, pages: 1 };
    if (url.endsWith('/nvrchannelinfo/list'))
      return {
        records: [{ id: '21', channelNo: 1, channelCode: '11010100001310000009', name: 'Door', status: 1 }],
        total: 1,
      };
    return [];
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('camera screen', () => {
  it('adds through save (the definition’s createPath) and updates through submit', () => {
    expect(resourceSchema(cameradevice).createPath).toBe('save');
    expect(resourceSchema(cameradevice).updatePath).toBeUndefined();
  });

  it('offers an NVR’s channels (not a camera’s) in a drawer', async () => {
    mount();
    const nvrRow = (await screen.findByText('Gate NVR', {}, { timeout: 10_000 })).closest('tr')!;
    const camRow = screen.getByText('Lobby cam').closest('tr')!;
    // (Text queries: role queries over an antd table are slow in jsdom.)
    expect(within(camRow).queryByText('通道')).toBeNull();
    fireEvent.click(within(nvrRow).getByText('通道'));
    expect(await screen.findByText('Gate NVR 的通道')).toBeTruthy();
    expect(await screen.findByText('Door')).toBeTruthy();
    expect(mockGet).toHaveBeenCalledWith('/api/blade-device-access/nvrchannelinfo/list', {
      nvrDeviceId: '11',
      size: 1000,
    });
  }, 60_000);
});
