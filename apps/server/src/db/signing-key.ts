import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from './client.ts';
import { systemSecret } from './schema/index.ts';

/**
 * The token signing key: the configured one; else, on the embedded database, one generated once per
 * data dir (file mode 0600); else, on a PostgreSQL server outside production, one generated once per
 * database so every process of a deployment agrees. Production always brings its own (config refuses otherwise).
 */
export async function resolveSigningKey(config: Config, database: Database): Promise<{ key: string; source: string }> {
  if (config.jwtSecret) return { key: config.jwtSecret, source: 'ATRIUM_JWT_SECRET' };
  if (database.kind === 'pglite') {
    const file = path.join(config.dataDir, 'signing.key');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    return { key: fs.readFileSync(file, 'utf8').trim(), source: file };
  }
  await database.db
    .insert(systemSecret)
    .values({ name: 'jwt', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await database.db.select().from(systemSecret).where(eq(systemSecret.name, 'jwt'));
  return { key: row.value, source: 'database (system_secret)' };
}
