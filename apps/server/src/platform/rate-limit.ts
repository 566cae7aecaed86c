import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError, type Text } from './errors.ts';

/**
 * Rate limits per client address on `@fastify/rate-limit` (docs/server.md "Rate limits"), kept in memory — per
 * process: each server counts its own requests, so N servers behind a balancer allow up to N times the limit. Good for
 * cheap public checks that must not be hammered; durable limits (SMS sends) count rows in the database.
 *
 * The plugin is registered once per app (`registerRateLimit`, from app.ts) and limits nothing by itself; a route asks
 * for a limit with `config: { rateLimit: perAddress(…) }` (its own counter), a plugin for all its routes together with
 * `app.addHook('onRequest', app.rateLimit(perAddress(…)))` (one counter for the plugin). Each app has its own
 * counters, so a test that builds an app starts from zero. Windows are fixed and counted in real time (`Date.now`,
 * the plugin's local store): tests move it with vitest's fake `Date`.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, { global: false });
}

/** Keys kept per limit (least recently seen dropped first): an address dropped starts a new window. */
const KEYS_KEPT = 100_000;

/**
 * At most `max` requests per client address in a window of `windowMs`, then a 429 in the envelope with `refusal` in
 * the caller's language (given the seconds left, when the text names them) and `Retry-After`. The key is the address
 * (`req.ip`: behind a trusted proxy, the client's); IPv6 addresses count per /64, one host's usual share, and an
 * IPv4-mapped address as its IPv4 address (the plugin's key).
 */
export function perAddress(
  max: number,
  windowMs: number,
  refusal: Text | ((seconds: number) => Text),
): RateLimitOptions {
  return {
    max,
    timeWindow: windowMs,
    cache: KEYS_KEPT,
    hook: 'onRequest',
    errorResponseBuilder: (_req, { ttl }) => {
      const seconds = Math.max(1, Math.ceil(ttl / 1000));
      return new AppError(429, typeof refusal === 'function' ? refusal(seconds) : refusal);
    },
  };
}
