import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { startTestCamera, type TestCamera } from '../../apps/server/test/support/test-camera.ts';
import { login } from './helpers.ts';
import { adminHeaders, ffmpegByServer, listLoopbackNetwork, saveRtspCamera } from './device-helpers.ts';

/**
 * A viewer across the death of the server running the stream (docs/cluster.md "Live video across servers"): through
 * the cluster only — `scripts/cluster.sh e2e` runs this spec on its own after the failover check, with
 * CLUSTER_VIDEO_FAILOVER=1 and every server up again. The monitoring screen plays a camera; the server whose ffmpeg
 * writes it (its stream folder `s<i>/video/`) gets SIGKILL; the same cell, untouched by the user, plays again from a
 * living server and shows no error.
 */

const STAMP = String(Date.now()).slice(-6);
const PORT = Number(process.env.E2E_FAILOVER_CAMERA_PORT ?? 18350);
let cam: TestCamera;

test.skip(process.env.CLUSTER_VIDEO_FAILOVER !== '1', 'through the cluster only (scripts/cluster.sh e2e)');

test.beforeAll(async () => {
  cam = await startTestCamera({ clientPort: PORT, sourcePort: PORT + 1 });
});
test.afterAll(async () => cam?.stop());

test("a camera keeps playing in the browser when its stream's server is killed", async ({ page, request }) => {
  test.setTimeout(180_000);
  const name = `e2e failover ${STAMP}`;
  const headers = await adminHeaders(request);
  await listLoopbackNetwork(request, headers);
  await saveRtspCamera(request, headers, { deviceCode: `11010100001311${STAMP}`, name, streamUrl: cam.url });

  await login(page);
  await page.goto('/video/video_monitor/index');
  const screen = page.getByTestId('video-monitor').last();
  await screen.getByTestId('camera-item').filter({ hasText: name }).click();
  const cell = screen.getByTestId('cell-0');
  const video = cell.getByTestId('cell-video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(1);

  // The owner: the one server running an ffmpeg of the camera.
  const before = ffmpegByServer();
  const owners = Object.keys(before).filter((s) => before[s] > 0);
  expect(owners).toHaveLength(1);
  const owner = owners[0];
  const pid = Number(fs.readFileSync(path.join(process.env.ATRIUM_E2E_DIR!, `server-${owner.slice(1)}.pid`), 'utf8'));
  process.kill(pid, 'SIGKILL');
  const killedAt = Date.now();

  // Another server runs it now, started by the viewer's own touches.
  await expect
    .poll(() => Object.entries(ffmpegByServer()).filter(([s, n]) => s !== owner && n > 0).length, {
      timeout: 60_000,
      intervals: [500],
    })
    .toBe(1);
  const restartedMs = Date.now() - killedAt;

  // And the picture moves again in the same cell: its clock advances over a second and a half.
  const advancing = async () => {
    const a = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await page.waitForTimeout(1500);
    const b = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    return b - a;
  };
  await expect.poll(advancing, { timeout: 60_000, intervals: [0] }).toBeGreaterThan(0.5);
  const playingMs = Date.now() - killedAt;
  await expect(cell.getByTestId('cell-error')).toHaveCount(0);
  console.log(
    `[video failover] ${owner} killed: ffmpeg on another server after ${restartedMs} ms, picture moving after ${playingMs} ms`,
  );
});
