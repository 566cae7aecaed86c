import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { SignJWT } from 'jose';
import { attach } from '../src/db/schema/index.ts';
import { openAttachment } from '../src/modules/resource/index.ts';
import { RemovalWorker } from '../src/modules/resource/removals.ts';
import { attachRemoval, ossConfig } from '../src/modules/resource/table.ts';
import { FILES_COOKIE } from '../src/platform/file-access.ts';
import { BASIC, bearer, client, createTestApp, login, loginToken, provisionedTenant, type TestApp } from './harness.ts';

/**
 * Object storage and attachments (docs/system-api.md "Files"), against s3rver — an S3-compatible server on loopback
 * started here (it checks the access key id but not a V4 signature, so "wrong keys" is a wrong access key here).
 */
let t: TestApp;
let A: string;
let passwordA = '';
let platform = '';
const TA = '732001';
const TB = '732002';
const OSS = '/api/blade-resource/oss';
const ATTACH = '/api/blade-resource/attach';
const BUCKET = 'atrium-test';
const SECRET = 'Bucket#Secret#42';
let s3: S3rver;
let port = 0;
let dir = '';
let endpoint = '';
let raw: S3Client;

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(20_000, 7)]);

async function startS3(at = 0) {
  s3 = new S3rver({
    port: at,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  const info = (await s3.run()) as net.AddressInfo;
  return info.port;
}

function upload(name: string, body: Buffer, lang?: 'en') {
  const boundary = `----oss${Date.now().toString(16)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return t.app.inject({
    method: 'POST',
    url: '/api/blade-resource/oss/endpoint/put-file',
    headers: {
      ...bearer(A),
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(lang ? { 'accept-language': 'en' } : {}),
    },
    payload: Buffer.concat([Buffer.from(head), body, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

/** A file as the console's <img> reads it (the files cookie), or as an API client does (a bearer token). */
const fetchFile = (url: string, headers: Record<string, string> = bearer(A)) =>
  t.app.inject({ method: 'GET', url, headers });
const asCookie = (files: string) => ({ cookie: `${FILES_COOKIE}=${files}` });
/** Signs in to a tenant and answers the access token and the files cookie's value the answer set. */
async function signIn(tenantId: string, password: string) {
  const res = await login(t, { tenantId, username: 'admin', password });
  expect(res.statusCode, res.body).toBe(200);
  const set = res.cookies.find((c) => c.name === FILES_COOKIE);
  expect(set).toMatchObject({ path: '/files', httpOnly: true, sameSite: 'Strict' });
  return { access: res.json().access_token as string, refresh: res.json().refresh_token as string, files: set!.value };
}

const keysInBucket = async () =>
  ((await raw.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!);
const attachCount = async () =>
  (await t.database.db.select().from(attach).where(eq(attach.tenantId, TA))).filter((r) => r.isDeleted === 0).length;

async function saveConfig(body: Record<string, unknown>, lang?: 'en') {
  return client(t, A, lang).post(`${OSS}/submit`, body);
}
async function s3Config(code: string, extra: Record<string, unknown> = {}) {
  const res = await saveConfig({
    ossCode: code,
    category: 2,
    endpoint,
    bucketName: BUCKET,
    accessKey: 'S3RVER',
    secretKey: SECRET,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; version: number };
}
const enable = (id: string) => client(t, A).post(`${OSS}/enable`, { id });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-s3-'));
  port = await startS3();
  endpoint = `http://127.0.0.1:${port}`;
  raw = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  // Loopback is allowed for this test only (docs/system-api.md "Files": ATRIUM_OSS_PRIVATE_NETWORKS).
  t = await createTestApp({ ossPrivateNetworks: ['127.0.0.0/8'] });
  platform = (await loginToken(t)).access;
  const made = await provisionedTenant(t, platform, TA);
  A = made.token;
  passwordA = made.password;
});
afterAll(async () => {
  await t?.close();
  await s3?.close().catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('storage configurations', () => {
  it('the secret key is sealed and answered as ******; S3 needs endpoint, bucket and keys', async () => {
    const { id } = await s3Config('keys');
    const detail = await client(t, A).get(`${OSS}/detail?id=${id}`);
    expect(detail.json().data.secretKey).toBe('******');
    expect(detail.body).not.toContain(SECRET);
    const [row] = await t.database.db.select().from(ossConfig).where(eq(ossConfig.id, id));
    expect(row.secretKeySealed).toMatch(/^v1\./);
    expect(row.secretKeySealed).not.toContain(SECRET);
    const none = await saveConfig({ ossCode: 'nokeys', category: 2, endpoint, bucketName: BUCKET }, 'en');
    expect([none.statusCode, none.json().msg]).toEqual([
      400,
      'S3-compatible storage needs the endpoint, bucket, access key and secret key',
    ]);
  });

  it('an endpoint inside the server’s own networks is refused (SSRF)', async () => {
    for (const host of ['http://10.1.2.3:9000', 'http://169.254.169.254', 'http://[::1]:9000', 'http://0.0.0.0:80']) {
      const res = await saveConfig(
        { ossCode: 'inner', category: 2, endpoint: host, bucketName: BUCKET, accessKey: 'a', secretKey: 'b' },
        'en',
      );
      expect([res.statusCode, res.json().msg], host).toEqual([400, expect.stringMatching(/internal or reserved/)]);
    }
  });
});

describe('uploads through the enabled configuration', () => {
  let s3Link = '';
  let s3AttachId = '';

  it('without one, put-file stores on the server’s disk', async () => {
    const res = await upload('plain.png', PNG);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.link).toMatch(/^\/files\/[0-9a-f]{32}\.png$/);
    expect((await fetchFile(res.json().data.link)).rawPayload.equals(PNG)).toBe(true);
  });

  it('enabled S3: stored in the bucket, recorded, served; listed under attachments', async () => {
    const { id } = await s3Config('minio');
    expect((await enable(id)).statusCode).toBe(200);
    const res = await upload('avatar.png', PNG);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { link: string; attachId: string; name: string };
    expect(data.link).toBe(`/files/${TA}/${data.name}`);
    expect(await keysInBucket()).toContain(`${TA}/${data.name}`);
    const served = await fetchFile(data.link);
    expect([served.statusCode, served.headers['content-type'], served.headers['x-content-type-options']]).toEqual([
      200,
      'image/png',
      'nosniff',
    ]);
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const list = await client(t, A).get(`${ATTACH}/list?ossCode=minio`);
    const rows = list.json().data.records as { id: string; originalName: string; attachSize: number }[];
    expect(rows.map((r) => [r.id, r.originalName, r.attachSize])).toEqual([[data.attachId, 'avatar.png', PNG.length]]);
    s3Link = data.link;
    s3AttachId = data.attachId;
  });

  it('e-mail attachments are read from where the file was stored', async () => {
    const [row] = await t.database.db.select().from(attach).where(eq(attach.id, s3AttachId));
    const stream = await openAttachment(t.services, TA, row);
    const chunks: Buffer[] = [];
    for await (const c of stream!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(PNG)).toBe(true);
  });

  it('a PDF is served as a download, never inline', async () => {
    const res = await upload('report.pdf', Buffer.from('%PDF-1.4\n%test\n'));
    expect(res.statusCode, res.body).toBe(200);
    const served = await fetchFile(res.json().data.link);
    expect([served.headers['content-type'], served.headers['content-disposition']]).toEqual([
      'application/pdf',
      'attachment',
    ]);
  });

  it('another tenant’s id in the link finds nothing', async () => {
    const name = s3Link.split('/').pop();
    expect((await fetchFile(`/files/000000/${name}`)).statusCode).toBe(404);
  });

  it('switching to another configuration leaves the earlier file readable where it is', async () => {
    const local = await saveConfig({ ossCode: 'disk', category: 1, maxSizeKb: 100 });
    expect((await enable(local.json().data.id)).statusCode).toBe(200);
    const res = await upload('after.png', PNG);
    expect(res.json().data.link).toMatch(/^\/files\/[0-9a-f]{32}\.png$/);
    expect((await fetchFile(s3Link)).statusCode).toBe(200);
  });

  it('removing an attachment deletes its object', async () => {
    const key = `${TA}/${s3Link.split('/').pop()}`;
    expect((await client(t, A).post(`${ATTACH}/remove?ids=${s3AttachId}`)).statusCode).toBe(200);
    expect(await keysInBucket()).not.toContain(key);
    await expect(raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).rejects.toThrow();
    expect((await fetchFile(s3Link)).statusCode).toBe(404);
  });
});

describe('a failing store: a clear message, nothing recorded, a retry later works', () => {
  it('wrong keys', async () => {
    const { id, version } = await s3Config('wrongkeys', { accessKey: 'NOPE' });
    expect((await enable(id)).statusCode).toBe(200);
    const before = [await attachCount(), (await keysInBucket()).length];
    const res = await upload('x.png', PNG, 'en');
    expect([res.statusCode, res.json().msg]).toEqual([
      503,
      'The storage service refused the keys or the bucket; the file was not stored. Check the object storage configuration',
    ]);
    expect([await attachCount(), (await keysInBucket()).length]).toEqual(before);
    const fixed = await saveConfig({
      id,
      version: version + 1,
      ossCode: 'wrongkeys',
      category: 2,
      endpoint,
      bucketName: BUCKET,
      accessKey: 'S3RVER',
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect((await upload('x.png', PNG)).statusCode).toBe(200);
  });

  it('endpoint down, then up again', async () => {
    const { id } = await s3Config('down');
    expect((await enable(id)).statusCode).toBe(200);
    const before = await attachCount();
    await s3.close();
    const res = await upload('y.png', PNG);
    expect([res.statusCode, res.json().msg]).toEqual([
      503,
      '存储服务暂时无法连接，文件未保存，请稍后重试或检查对象存储配置',
    ]);
    expect(await attachCount()).toBe(before);
    await startS3(port);
    expect((await upload('y.png', PNG)).statusCode).toBe(200);
    expect(await attachCount()).toBe(before + 1);
  });
});

describe('refused before anything is stored', () => {
  it('path tricks, control characters, long names, a wrong extension, an oversized file, SVG and HTML', async () => {
    const { id } = await s3Config('small', { maxSizeKb: 8 });
    expect((await enable(id)).statusCode).toBe(200);
    const before = [await attachCount(), (await keysInBucket()).length];
    const cases: [string, Buffer, RegExp][] = [
      ['../../etc/x.png', PNG.subarray(0, 100), /path/],
      ['..', PNG.subarray(0, 100), /path/],
      ['a\\b.png', PNG.subarray(0, 100), /path/],
      ['a\u0001.png', PNG.subarray(0, 100), /control/],
      [`${'a'.repeat(300)}.png`, PNG.subarray(0, 100), /too long/],
      ['photo.pdf', PNG.subarray(0, 100), /does not match/],
      ['big.png', PNG, /too large|exceeds|larger/i],
      [
        'x.svg',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        /not supported/,
      ],
      ['x.html', Buffer.from('<html><script>alert(1)</script></html>'), /not supported/],
    ];
    for (const [name, body, msg] of cases) {
      const res = await upload(name, body, 'en');
      expect([res.statusCode, res.json().msg], name).toEqual([400, expect.stringMatching(msg)]);
    }
    expect([await attachCount(), (await keysInBucket()).length]).toEqual(before);
  });
});

describe('a file is served to its own tenant only (the files cookie or a bearer token)', () => {
  const links = { s3: '', disk: '' };
  let passwordB = '';
  beforeAll(async () => {
    const { id } = await s3Config('shared');
    expect((await enable(id)).statusCode).toBe(200);
    links.s3 = (await upload('shared.png', PNG)).json().data.link;
    const disk = await saveConfig({ ossCode: 'disk2', category: 1 });
    expect((await enable(disk.json().data.id)).statusCode).toBe(200);
    links.disk = (await upload('shared.png', PNG)).json().data.link;
    expect([links.s3, links.disk]).toEqual([
      expect.stringMatching(`^/files/${TA}/`),
      expect.stringMatching(/^\/files\/[^/]+$/),
    ]);
    passwordB = (await provisionedTenant(t, platform, TB)).password;
  });

  it('the own tenant reads with the cookie set at sign-in, or with its bearer token', async () => {
    const { files } = await signIn(TA, passwordA);
    for (const link of [links.s3, links.disk]) {
      const res = await fetchFile(link, asCookie(files));
      expect([res.statusCode, res.rawPayload.equals(PNG)], link).toEqual([200, true]);
      expect((await fetchFile(link, bearer(A))).statusCode, link).toBe(200);
    }
  });

  it('another tenant’s user gets a 404 on the link, with its cookie or its token, whatever tenant the link names', async () => {
    const b = await signIn(TB, passwordB);
    for (const link of [links.s3, links.disk, `/files/${TB}/${links.s3.split('/').pop()}`]) {
      expect((await fetchFile(link, asCookie(b.files))).statusCode, link).toBe(404);
      expect((await fetchFile(link, bearer(b.access))).statusCode, link).toBe(404);
    }
  });

  it('no, a forged or an expired cookie: 404; an access token is no files cookie, the cookie no access token', async () => {
    const a = await signIn(TA, passwordA);
    const forged = await new SignJWT({ tid: TA, sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('atrium')
      .setAudience('atrium-files')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not the server key'));
    for (const headers of [{}, asCookie(forged), asCookie(a.access), asCookie(`${a.files}x`), { cookie: 'other=1' }])
      expect((await fetchFile(links.disk, headers)).statusCode, JSON.stringify(headers)).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: `${ATTACH}/list`, headers: bearer(a.files) });
    expect(api.statusCode).toBe(401);
    t.clock.offsetMs = 3601_000; // the access token's validity (1 h) is over: the cookie's too; the session stands
    try {
      expect((await fetchFile(links.disk, asCookie(a.files))).statusCode).toBe(404);
    } finally {
      t.clock.offsetMs = 0;
    }
    expect((await fetchFile(links.disk, asCookie(a.files))).statusCode).toBe(200);
  });

  it('a refresh sets a new cookie; after logout the cookie is cleared and refused', async () => {
    const a = await signIn(TA, passwordA);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?grant_type=refresh_token&scope=all&tenantId=${TA}&refresh_token=${a.refresh}`,
      headers: { authorization: BASIC, 'tenant-id': TA },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const files = refreshed.cookies.find((c) => c.name === FILES_COOKIE)!.value;
    const first = await fetchFile(links.s3, asCookie(files));
    expect([first.statusCode, first.headers['cache-control']]).toEqual([200, 'private, no-cache']);
    // The browser asks again with the ETag each time: a 304 while the reader holds, a 404 once signed out.
    const revalidate = { ...asCookie(files), 'if-none-match': String(first.headers.etag) };
    expect((await fetchFile(links.s3, revalidate)).statusCode).toBe(304);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/logout',
      headers: bearer(refreshed.json().access_token),
    });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === FILES_COOKIE)).toMatchObject({ value: '', path: '/files' });
    for (const held of [files, a.files]) expect((await fetchFile(links.s3, asCookie(held))).statusCode).toBe(404);
    expect((await fetchFile(links.s3, revalidate)).statusCode).toBe(404);
  });
});

describe('a removal while the store is down: the record goes, the object is removed once the store is back', () => {
  it('queued, kept while the store is down, removed by the worker after', async () => {
    const { id } = await s3Config('flaky');
    expect((await enable(id)).statusCode).toBe(200);
    const up = (await upload('flaky.png', PNG)).json().data as { attachId: string; name: string; link: string };
    const key = `${TA}/${up.name}`;
    await s3.close();
    const res = await client(t, A).post(`${ATTACH}/remove?ids=${up.attachId}`);
    expect(res.statusCode, res.body).toBe(200);
    const listed = await client(t, A).get(`${ATTACH}/list?ossCode=flaky`);
    expect(listed.json().data.records).toEqual([]);
    const [queued] = await t.database.db.select().from(attachRemoval).where(eq(attachRemoval.attachId, up.attachId));
    expect(queued).toMatchObject({ tenantId: TA, objectKey: key, attempts: 1, lockedBy: null });
    expect(queued.lastError).toMatch(/ECONNREFUSED 127\.0\.0\.1:\d+/);
    await startS3(port);
    expect(await keysInBucket()).toContain(key);
    expect((await fetchFile(up.link)).statusCode).toBe(404);
    const worker = new RemovalWorker(t.services);
    expect(await worker.runOnce()).toEqual({ claimed: 0, removed: 0 }); // not due yet: 30 s after the failure
    t.clock.offsetMs = 31_000;
    try {
      expect(await worker.runOnce()).toMatchObject({ removed: 1 });
    } finally {
      t.clock.offsetMs = 0;
    }
    expect(await keysInBucket()).not.toContain(key);
    expect(await t.database.db.select().from(attachRemoval).where(eq(attachRemoval.attachId, up.attachId))).toEqual([]);
  });
});
