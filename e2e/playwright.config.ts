import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8091);
// E2E_BASE_URL: the suite runs against servers already running there (the cluster behind nginx, `scripts/cluster.sh
// e2e`, docs/cluster.md "The e2e suite through nginx") and starts none. Then E2E_MQTT_PORT is their broker and
// ATRIUM_E2E_DIR the folder holding the harness's captchas.txt and the servers' data folders.
const external = process.env.E2E_BASE_URL;
if (external && (!process.env.E2E_MQTT_PORT || !process.env.ATRIUM_E2E_DIR))
  throw new Error("E2E_BASE_URL needs E2E_MQTT_PORT (the servers' broker) and ATRIUM_E2E_DIR (their captchas.txt)");
// The embedded MQTT broker of the e2e server (device access, docs/devices.md): the simulator publishes there.
const mqttPort = Number(process.env.E2E_MQTT_PORT ?? port + 1000);
process.env.E2E_MQTT_PORT = String(mqttPort);
// The config is evaluated by the runner and again by each worker: make the data dir once and pass it on.
process.env.ATRIUM_E2E_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-'));
const dataDir = process.env.ATRIUM_E2E_DIR;
const captchaFile = path.join(dataDir, 'captchas.txt');
process.env.ATRIUM_E2E_CAPTCHA_FILE = captchaFile;
const reportDir = process.env.ATRIUM_REPORT_DIR;
// CI's report file: playwright.json, playwright-cluster.json with ATRIUM_REPORT_TAG=cluster (.ci/summarize.mjs).
const reportTag = process.env.ATRIUM_REPORT_TAG;
const reportFile = `${reportDir}/playwright${reportTag ? `-${reportTag}` : ''}.json`;

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: reportDir ? [['list'], ['json', { outputFile: reportFile }]] : [['list']],
  use: {
    baseURL: external ?? `http://localhost:${port}`,
    locale: 'zh-CN',
    viewport: { width: 1366, height: 820 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: external
    ? undefined
    : {
        command: 'npx tsx ../apps/server/test/captcha-file-server.ts',
        url: `http://localhost:${port}/api/blade-system/tenant/info?domain=x`,
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: 'pipe',
        env: {
          PORT: String(port),
          ATRIUM_DATA_DIR: dataDir,
          ATRIUM_E2E_CAPTCHA_FILE: captchaFile,
          LOG_LEVEL: 'warn',
          NODE_ENV: 'test',
          ATRIUM_MQTT_PORT: String(mqttPort),
          // The S3-compatible server tests/oss.spec.ts starts on loopback (docs/system-api.md "Files": test-only).
          ATRIUM_OSS_PRIVATE_NETWORKS: '127.0.0.0/8',
          // A closed cell's stream ends this long after its last touch (docs/devices.md "Stream manager"): above the
          // viewer's 10 s touch, so a watched stream is never cut, and short enough for the video specs' last wait.
          ATRIUM_STREAM_IDLE_SECONDS: process.env.ATRIUM_STREAM_IDLE_SECONDS ?? '12',
        },
      },
});
