import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { TokenService } from './tokens.ts';
import type { Cache } from './cache.ts';
import type { LiveGuesses } from './live.ts';
import type { LiveMemory } from './live-memory.ts';
import type { Registry as MetricsRegistry } from 'prom-client';

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
  /**
   * The menu and button codes the roles hold (cached). The menu module owns the grants; app.ts passes its reader in,
   * so platform code (the guard, `requireCode`) imports no module (docs/server.md "Module boundaries").
   */
  permissionCodes: (tenantId: string, roleIds: string[]) => Promise<Set<string>>;
  /**
   * The app's Prometheus metrics (platform/metrics.ts): a module adds its gauges and counters with
   * `registers: [s.metrics]` in its plugin (docs/deploy.md "Metrics").
   */
  metrics: MetricsRegistry;
  /**
   * What modules answer for one another, filled by the module that knows at its registration (per app, never a
   * module-level variable): a lower module asks through it instead of importing a higher one (docs/server.md
   * "Module boundaries").
   */
  registry: Registry;
};

/**
 * An interface, so that the code owning a member adds it where it is defined (`declare module`): `bindings`
 * (platform/resource.ts), `scopeResources` (platform/access.ts), the modules' own. docs/server.md "Registries".
 */
export interface Registry {
  /** The tenant of a running sub-domain host, or null (filled by the subdomain module; read by the client module). */
  hostTenant?: (host: string) => Promise<string | null>;
  /**
   * Told when a tenant's rows have been moved to another database (filled by the subdomain module, whose host
   * namespace stays on the main database; called by the tenant module after a move or a dead move's settling).
   */
  tenantMoved?: (tenantId: string) => Promise<void>;
}
