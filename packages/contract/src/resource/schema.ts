import { z } from 'zod';
import type { FieldDef, Msg, ResourceDef } from './define.ts';
import { encodeMsg, idLabels, msg, requiredText } from './messages.ts';

/** The largest id a bigint column holds. */
export const MAX_ID = 9223372036854775807n;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

const isId = (s: string) => /^\d{1,19}$/.test(s) && BigInt(s) <= MAX_ID;

/** An id on input: a numeric string or number within bigint range → a string. */
export function idSchema(label: Msg = idLabels.id, opts: { allowZero?: boolean } = {}) {
  const m = encodeMsg(msg('notId', { label }));
  return z
    .union([z.string({ error: m }), z.number({ error: m })], { error: m })
    .transform((v) => String(v).trim())
    .refine((s) => isId(s) && (opts.allowZero || s !== '0' || false), m);
}

/** A list of ids: a JSON array or a comma list, 1–`max` of them. */
export function idListSchema(label: Msg = idLabels.ids, max = 1000) {
  const m = encodeMsg(msg('notId', { label }));
  const none = encodeMsg(msg('idsRequired'));
  return z
    .union([z.array(z.union([z.string(), z.number()]), { error: m }), z.string({ error: m }), z.number({ error: m })])
    .transform((v) => (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((x) => x.trim()).filter(Boolean))
    .refine((a) => a.length > 0, none)
    .refine((a) => a.length <= max && a.every(isId), m);
}

export type SchemaOptions = {
  /** Parses a date input (ISO 8601 or `YYYY-MM-DD HH:mm:ss` in the server's zone); null when invalid. */
  parseDate?: (s: string) => Date | null;
  /** Longest text per field (the server passes its column widths: one source for both). */
  widths?: Record<string, number>;
};

const defaultParseDate = (s: string) => {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** A calendar day as the wire carries it (`date` fields): `YYYY-MM-DD`, a real day of the years 1900–9999. */
export function isDay(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && y <= 9999 && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
}

/** One field's validator: typed, bounded, with messages in both languages. */
export function fieldSchema(f: FieldDef, name: string, opts: SchemaOptions = {}): z.ZodType {
  const label = f.label;
  const req = requiredText(f);
  const e = (m: Msg) => encodeMsg(m);
  const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
  let base: z.ZodType;
  switch (f.kind) {
    case 'text':
    case 'textarea':
    case 'secret':
    case 'upload': {
      const max = opts.widths?.[name] ?? ('max' in f && f.max ? f.max : 255);
      let s = z
        .string({ error: e(msg('notText', { label })) })
        .trim()
        .refine((v) => !v.includes('\u0000'), e(msg('nulByte', { label })))
        .refine((v) => v.length <= max, e(msg('tooLong', { label, max })));
      if (f.kind === 'text' || f.kind === 'textarea' || f.kind === 'secret') {
        // A secret's mask sent back means "unchanged" (docs/resources.md "Secrets"): not held to the rules.
        const kept = (v: string) => v === '' || (f.kind === 'secret' && f.mask !== undefined && v === f.mask);
        if (f.min) s = s.refine((v) => kept(v) || v.length >= f.min!, e(msg('tooShort', { label, min: f.min })));
        if (f.pattern) {
          const re = new RegExp(f.pattern.regex);
          s = s.refine((v) => kept(v) || re.test(v), e(f.pattern.message));
        }
      }
      base = req ? s.refine((v) => v !== '', e(req)) : s;
      break;
    }
    case 'int':
    case 'decimal':
    case 'switch': {
      const min = f.kind === 'switch' ? 0 : (f.min ?? INT_MIN);
      const max = f.kind === 'switch' ? 1 : (f.max ?? INT_MAX);
      const bad = e(f.invalid ?? msg(f.kind === 'decimal' ? 'notNumber' : 'notInt', { label }));
      base = z
        .union([z.number({ error: bad }), z.string({ error: bad }), z.boolean({ error: bad })], { error: bad })
        .transform((v, ctx) => {
          const n = typeof v === 'boolean' ? Number(v) : typeof v === 'number' ? v : Number(v.trim());
          if (typeof v === 'string' && v.trim() === '') {
            ctx.addIssue({ code: 'custom', message: req ? e(req) : bad });
            return z.NEVER;
          }
          if (!Number.isFinite(n) || (f.kind !== 'decimal' && !Number.isInteger(n))) {
            ctx.addIssue({ code: 'custom', message: bad });
            return z.NEVER;
          }
          if (n < min || n > max) {
            ctx.addIssue({ code: 'custom', message: e(f.invalid ?? msg('outOfRange', { label, min, max })) });
            return z.NEVER;
          }
          return n;
        });
      break;
    }
    case 'date': {
      // A day, the same in every zone: kept and answered as `YYYY-MM-DD` (docs/resources.md "Kinds and columns").
      const bad = e(f.invalid ?? msg('notDay', { label }));
      base = z
        .string({ error: bad })
        .transform((v) => v.trim())
        .refine(isDay, bad);
      break;
    }
    case 'datetime': {
      const parse = opts.parseDate ?? defaultParseDate;
      const bad = e(msg('notDate', { label }));
      base = z.union([z.string({ error: bad }), z.date({ error: bad })], { error: bad }).transform((v, ctx) => {
        const d = typeof v === 'string' ? parse(v) : v;
        const y = d?.getUTCFullYear() ?? 0;
        if (!d || Number.isNaN(d.getTime()) || y < 1900 || y > 9999) {
          ctx.addIssue({ code: 'custom', message: bad });
          return z.NEVER;
        }
        return d;
      });
      break;
    }
    case 'dict': {
      const bad = e(f.invalid ?? msg('notInList', { label }));
      const one: z.ZodType<string | number, any> = // eslint-disable-line @typescript-eslint/no-explicit-any
        f.keys === 'int'
          ? z.union([z.number(), z.string()], { error: bad }).transform((v, ctx) => {
              const n = typeof v === 'number' ? v : Number(v.trim());
              if (!Number.isInteger(n) || n < INT_MIN || n > INT_MAX || (typeof v === 'string' && !v.trim())) {
                ctx.addIssue({ code: 'custom', message: bad });
                return z.NEVER;
              }
              return n;
            })
          : z
              .union([z.string(), z.number()], { error: bad })
              .transform((v) => String(v).trim())
              .refine((v) => v.length <= 64 && !v.includes('\u0000'), bad);
      const allowed = f.values?.map(String);
      const checked = allowed ? one.refine((v: string | number) => allowed.includes(String(v)), bad) : one;
      base = f.multiple
        ? z
            .union([z.array(z.union([z.string(), z.number()])), z.string()], { error: bad })
            .transform((v) => (Array.isArray(v) ? v.map(String) : v.split(',')).map((x) => x.trim()).filter(Boolean))
            // Each value checked here, not by a piped array: a refusal names the field, not `field.0`.
            .transform((a, ctx) => {
              const out: (string | number)[] = [];
              for (const x of a) {
                const r = checked.safeParse(x);
                if (!r.success || out.length >= 100) {
                  ctx.addIssue({ code: 'custom', message: bad });
                  return z.NEVER;
                }
                out.push(r.data);
              }
              return out.join(',');
            })
        : checked;
      break;
    }
    case 'ref': {
      if (f.multiple) {
        base = idListSchema(label, 5000).or(z.array(z.never()).transform(() => [] as string[]));
      } else {
        const m = e(msg('notId', { label }));
        base = z
          .union([z.string({ error: m }), z.number({ error: m })], { error: m })
          .transform((v) => String(v).trim())
          .refine((s) => s === '' || isId(s), m);
      }
      break;
    }
    case 'region': {
      const bad = e(msg('badFormat', { label }));
      base = z
        .union([z.string(), z.number()], { error: bad })
        .transform((v) => String(v).trim())
        .refine((s) => s === '' || /^\d{2,12}$/.test(s), bad);
      break;
    }
  }
  if (req) {
    // Missing, null or '' → the required message (not the validator's "expected string").
    return z
      .any()
      .superRefine((v, ctx) => {
        if (empty(v)) ctx.addIssue({ code: 'custom', message: e(req) });
      })
      .pipe(base);
  }
  // Optional: absent stays absent; '' clears a text, null clears anything.
  const text = ['text', 'textarea', 'secret', 'upload', 'region'].includes(f.kind);
  return z.preprocess((v) => (v === '' && !text ? null : v), base.nullable().optional());
}

/** The body a submit accepts: every writable field, typed and bounded; unknown keys are dropped. */
export function bodySchema(def: ResourceDef, opts: SchemaOptions = {}) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.readOnly || f.virtual) continue;
    shape[name] = fieldSchema(f, name, opts);
  }
  return z.object(shape);
}
