import { expect, test } from './fixtures.ts';
import { startTestCamera, type TestCamera } from '../../apps/server/test/support/test-camera.ts';
import { startOnvifFake, type OnvifFake } from '../../apps/server/test/support/onvif-fake.ts';
import { login } from './helpers.ts';
import { adminHeaders, listLoopbackNetwork, saveRtspCamera, serverFfmpeg } from './device-helpers.ts';

/**
 * Live video (docs/devices.md "Live video"): a camera pointing at the loopback test camera (rtsp-streaming-server fed by
 * ffmpeg) and at the fake ONVIF service is added through the camera API; the monitoring screen plays it (the
 * <video>'s time advances), a PTZ press and release reach the fake as ContinuousMove then Stop, and closing the cell
 * ends the server's ffmpeg once the idle time passed. playwright.config.ts gives the server a short idle time (ATRIUM_STREAM_IDLE_SECONDS, 12 s by default).
 */

const STAMP = String(Date.now()).slice(-6);
const PORT = Number(process.env.E2E_CAMERA_PORT ?? 18340);
let cam: TestCamera;
let onvif: OnvifFake;

test.beforeAll(async () => {
  cam = await startTestCamera({ clientPort: PORT, sourcePort: PORT + 1 });
  onvif = await startOnvifFake({ user: 'e2e' });
});
test.afterAll(async () => {
  await cam?.stop();
  await onvif?.close();
});

test('play a camera, steer it, close it: the stream stops', async ({ page, request }) => {
  test.setTimeout(120_000);
  const name = `e2e dome ${STAMP}`;
  const headers = await adminHeaders(request);
  await listLoopbackNetwork(request, headers);
  await saveRtspCamera(request, headers, {
    deviceCode: `11010100001310${STAMP}`,
    name,
    streamUrl: cam.url,
    ptz: 1,
    onvifUrl: onvif.url,
    onvifUser: 'e2e',
    onvifPassword: 'e2e-secret',
  });

  await login(page);
  await page.goto('/video/video_monitor/index');
  const screen = page.getByTestId('video-monitor').last();
  await screen.getByTestId('camera-item').filter({ hasText: name }).click();

  // Plays: the video's clock advances.
  const video = screen.getByTestId('cell-0').getByTestId('cell-video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(1);
  expect(serverFfmpeg()).toBe(1);

  // PTZ: press = ContinuousMove with the velocity, release = Stop.
  const up = screen.getByTestId('ptz-up');
  await expect(up).toBeEnabled();
  await up.hover();
  await page.mouse.down();
  await expect.poll(() => onvif.calls.map((c) => c.action)).toContain('ContinuousMove');
  await page.mouse.up();
  await expect.poll(() => onvif.calls.at(-1)?.action).toBe('Stop');
  const move = onvif.calls.find((c) => c.action === 'ContinuousMove')!;
  expect([move.x, move.y]).toEqual([0, 0.5]);

  // Close the cell: no more touches; the server ends the ffmpeg after the idle time.
  await screen.getByTestId('cell-close-0').click();
  await expect(screen.getByTestId('cell-0').getByTestId('cell-video')).toHaveCount(0);
  await expect.poll(() => serverFfmpeg(), { timeout: 60_000, intervals: [1000] }).toBe(0);
});
