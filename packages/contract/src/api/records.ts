import { z } from 'zod';
import type { FieldDef, ResourceDef } from '../resource/define.ts';

/**
 * The answered record of a resource as a zod schema, for the answers of declared routes that list a resource's
 * records (docs/api.md "Routes in the contract"): the record columns and the definition's fields, each by kind, as
 * the server's CRUD answers carry them (apps/server/src/platform/resource.ts `recordSchema`, docs/resources.md
 * "Answers") — a secret only as its mask, never its value.
 */
export function recordAnswer(def: ResourceDef) {
  const shape: Record<string, z.ZodType> = {
    id: z.string(),
    tenantId: z.string().nullish(),
    createUser: z.string().nullish(),
    createDept: z.string().nullish(),
    createTime: z.string().nullish(),
    updateUser: z.string().nullish(),
    updateTime: z.string().nullish(),
    status: z.number().int().nullish(),
    isDeleted: z.number().int().nullish(),
    version: z.number().int().optional(),
  };
  for (const [name, f] of Object.entries(def.fields))
    if (f.kind !== 'secret') shape[name] = valueOf(f).nullish();
    else if (f.mask !== undefined || f.reveal) shape[name] = z.string().optional();
  if (def.tree) shape.hasChildren = z.boolean().optional();
  return z.object(shape);
}

/** One answered value of a field, by kind (docs/resources.md "Kinds and columns"). */
function valueOf(f: FieldDef): z.ZodType {
  switch (f.kind) {
    case 'int':
    case 'switch':
      return z.number().int();
    case 'decimal':
      return z.number();
    case 'dict':
      return f.keys === 'int' && !f.multiple ? z.number().int() : z.string();
    case 'ref':
      return f.multiple ? z.unknown() : z.string();
    default:
      return z.string();
  }
}

/** A page of records (docs/system-api.md "Lists and trees"). */
export const pageOf = <T extends z.ZodType>(record: T) =>
  z.object({ records: z.array(record), total: z.number(), size: z.number(), current: z.number(), pages: z.number() });

/** A list call's query: filters, sorts and paging, checked by the server's list rules (docs/resources.md "Filters and sorts"). */
export const listQuery = z.record(z.string(), z.unknown());
