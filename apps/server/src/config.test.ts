import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('has working defaults for the embedded demo', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, captchaRequired: true, env: 'development', databaseUrl: undefined });
    expect(c.dataDir).toMatch(/data$/);
  });

  it('turns the captcha off only with ATRIUM_CAPTCHA=off and refuses other values', () => {
    expect(loadConfig({ ATRIUM_CAPTCHA: 'off' }).captchaRequired).toBe(false);
    expect(() => loadConfig({ ATRIUM_CAPTCHA: 'false' })).toThrow(/ATRIUM_CAPTCHA/);
  });

  it('trusts no proxy by default; ATRIUM_TRUST_PROXY names addresses or ranges', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ ATRIUM_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(() => loadConfig({ ATRIUM_TRUST_PROXY: 'true' })).toThrow(/ATRIUM_TRUST_PROXY/);
  });

  it('serves metrics only when ATRIUM_METRICS_PORT is set, on loopback unless a token is given', () => {
    expect(loadConfig({}).metrics).toMatchObject({ enabled: false });
    expect(loadConfig({ ATRIUM_METRICS_PORT: '9464' }).metrics).toEqual({
      enabled: true,
      port: 9464,
      host: '127.0.0.1',
      token: undefined,
    });
    expect(() => loadConfig({ ATRIUM_METRICS_PORT: '9464', ATRIUM_METRICS_HOST: '0.0.0.0' })).toThrow(
      /ATRIUM_METRICS_TOKEN/,
    );
    const token = 'a-long-enough-token';
    expect(
      loadConfig({ ATRIUM_METRICS_PORT: '9464', ATRIUM_METRICS_HOST: '0.0.0.0', ATRIUM_METRICS_TOKEN: token }).metrics,
    ).toMatchObject({ host: '0.0.0.0', token });
    expect(() => loadConfig({ ATRIUM_METRICS_TOKEN: 'short' })).toThrow(/ATRIUM_METRICS_TOKEN/);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ATRIUM_JWT_SECRET: 'short' })).toThrow(/ATRIUM_JWT_SECRET/);
  });

  it('refuses production without its own signing key or with the default admin password', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ATRIUM_ADMIN_PASSWORD: 'Strong#Password1' })).toThrow(
      /ATRIUM_JWT_SECRET/,
    );
    const key = 'k'.repeat(40);
    expect(() => loadConfig({ NODE_ENV: 'production', ATRIUM_JWT_SECRET: key })).toThrow(/ATRIUM_ADMIN_PASSWORD/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ATRIUM_JWT_SECRET: key, ATRIUM_ADMIN_PASSWORD: 'admin' }),
    ).toThrow(/ATRIUM_ADMIN_PASSWORD/);
    expect(
      loadConfig({ NODE_ENV: 'production', ATRIUM_JWT_SECRET: key, ATRIUM_ADMIN_PASSWORD: 'Strong#Password1' }).env,
    ).toBe('production');
  });
});
