import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from './harness.ts';

/** The client IP a request is taken to come from: X-Forwarded-For counts only from a named proxy. */
const ipRoute = (app: FastifyInstance) =>
  app.get('/probe/ip', { config: { auth: 'none' } }, async (req) => ({ ip: req.ip }));

let plain: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  plain = await createTestApp({}, ipRoute);
  proxied = await createTestApp({ trustProxy: ['127.0.0.1'] }, ipRoute);
});
afterAll(async () => {
  await plain?.close();
  await proxied?.close();
});

const ipOf = async (t: TestApp, remoteAddress: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/probe/ip',
      remoteAddress,
      headers: { 'x-forwarded-for': '203.0.113.9' },
    })
  ).json().ip;

describe('the edge is honest about the client address', () => {
  it('ignores X-Forwarded-For unless ATRIUM_TRUST_PROXY names the proxy', async () => {
    expect(await ipOf(plain, '127.0.0.1')).toBe('127.0.0.1');
    expect(await ipOf(proxied, '127.0.0.1')).toBe('203.0.113.9');
    // A client that is not the named proxy cannot forge its address either.
    expect(await ipOf(proxied, '198.51.100.7')).toBe('198.51.100.7');
  });
});
