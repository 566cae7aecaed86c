// Uploads on the servers' disk behind a proxy (docs/cluster.md "Uploads"): a file stored through one server is
// served by another when both keep uploads in one folder (ATRIUM_UPLOAD_DIR), and not when each keeps its own
// (the default, `<data dir>/uploads`: what the e2e suite through nginx found). PGlite, or PostgreSQL with DATABASE_URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceApi } from '@atrium/contract';
import { bearer, createTestApp, loginToken, secondInstance, type TestApp } from './harness.ts';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(2_000, 3)]);
const folders: string[] = [];
const folder = (tag: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `atrium-${tag}-`));
  folders.push(d);
  return d;
};

let a: TestApp;
let shared: TestApp;
let apart: TestApp;
let token = '';

beforeAll(async () => {
  const uploads = folder('uploads');
  a = await createTestApp({ uploadDir: uploads });
  // Two more servers on the same database, each on a data dir of its own (as on other machines): one shares a's
  // upload folder, the other keeps its own.
  shared = await secondInstance(a, a.databaseUrl, { ...a.config, dataDir: folder('s2'), uploadDir: uploads });
  const own = folder('s3');
  apart = await secondInstance(a, a.databaseUrl, { ...a.config, dataDir: own, uploadDir: path.join(own, 'uploads') });
  token = (await loginToken(a)).access;
});
afterAll(async () => {
  await apart?.close();
  await shared?.close();
  await a?.close();
  for (const d of folders) fs.rmSync(d, { recursive: true, force: true });
});

function upload(t: TestApp) {
  const boundary = `----cl${Date.now().toString(16)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="face.png"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return t.app.inject({
    method: 'POST',
    url: resourceApi.putFile.path,
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), PNG, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

describe('a file stored through one server, read through another', () => {
  it('is served by a server sharing the upload folder, byte for byte', async () => {
    const res = await upload(a);
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json().data.link as string;
    expect(link).toMatch(/^\/files\/[0-9a-f]{32}\.png$/);
    const served = await shared.app.inject({ method: 'GET', url: link, headers: bearer(token) });
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/png']);
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('is missing on a server with an upload folder of its own (why a cluster shares one)', async () => {
    const res = await upload(a);
    expect(res.statusCode, res.body).toBe(200);
    const served = await apart.app.inject({
      method: 'GET',
      url: res.json().data.link as string,
      headers: bearer(token),
    });
    expect(served.statusCode).toBe(404);
  });
});
