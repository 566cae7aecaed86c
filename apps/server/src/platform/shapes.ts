import { Column } from 'drizzle-orm';

/**
 * Row shapes made once per table or resource, as functions with the property names written out (docs/server.md
 * "Round trips"): a loop over a list of names stores and reads each property through a lookup by a varying key, slow
 * once a record has a few dozen of them; a function whose object literal names them is as fast as hand-written code.
 * The names come from table and resource definitions (code, never a request) and are written as JSON strings.
 */

/** A driver row (an array in select-list order, the columns from `at`) → a record keyed by property, values mapped. */
export type ArrayRowReader = (raw: unknown[], at: number) => Record<string, unknown>;

/** The driver-value mapping of a column that has one of its own (timestamps, numerics, JSON); text needs none. */
const mapperOf = (c: Column): ((v: unknown) => unknown) | undefined =>
  c.mapFromDriverValue === Column.prototype.mapFromDriverValue ? undefined : (v) => c.mapFromDriverValue(v);

export function arrayRowReader(columns: [key: string, column: Column][]): ArrayRowReader {
  const mappers = columns.map(([, c]) => mapperOf(c));
  const props = columns.map(([key], i) => {
    const v = `raw[at + ${i}]`;
    const value = mappers[i] ? `${v} == null ? null : m[${i}](${v})` : `${v} === undefined ? null : ${v}`;
    return `${JSON.stringify(key)}: ${value}`;
  });
  const make = new Function('m', `return (raw, at) => ({ ${props.join(', ')} });`) as (
    m: (((v: unknown) => unknown) | undefined)[],
  ) => ArrayRowReader;
  return make(mappers);
}

/** A record → a new one with only `keys`, each copied when the record has it. */
export function picker(keys: string[]): <T extends object>(row: T) => T {
  const lines = [...new Set(keys)].map((k) => {
    const name = JSON.stringify(k);
    return `if (${name} in row) out[${name}] = row[${name}];`;
  });
  return new Function('row', `const out = {}; ${lines.join(' ')} return out;`) as <T extends object>(row: T) => T;
}
