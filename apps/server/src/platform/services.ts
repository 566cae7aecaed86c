import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { TokenService } from './tokens.ts';
import type { Cache } from './cache.ts';
import type { LiveGuesses } from './live.ts';
import type { LiveMemory } from './live-memory.ts';

/** What every module gets: the database, config, token service, clock and the shared read cache. */
export type Services = {
  db: Db;
  config: Config;
  tokens: TokenService;
  now: () => Date;
  cache: Cache;
  /** The last live state read per session, on which a read may be admitted (platform/live.ts `speculate`). */
  liveGuesses: LiveGuesses;
  /** The live state held in memory while the write events reach this server (platform/live-memory.ts). */
  liveMemory: LiveMemory;
  /** A 32-byte key for one purpose, derived from the server's signing key (HKDF-SHA256), e.g. sealing stored secrets (docs/outbox.md). */
  deriveKey: (purpose: string) => Buffer;
  /** Test harnesses only: learn the code of each captcha drawn. The production start never sets it. */
  onCaptcha?: (key: string, text: string) => void;
};
