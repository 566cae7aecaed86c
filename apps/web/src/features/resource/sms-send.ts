/**
 * The checks of the SMS "send" dialog, mirroring the server's (`POST /api/blade-resource/sms/endpoint/send-message`,
 * docs/outbox.md "SMS"): phones are mainland mobiles or +<country><number>, at most 100; parameters are name=value
 * lines or a JSON object of at most 20 names (letters, digits, _; ≤ 32) with text or number values (≤ 200).
 * Errors are i18n keys under `smsSend` with their values.
 */
export const MAX_PHONES = 100;
export const MAX_PARAMS = 20;
const PHONE = /^(1\d{10}|\+[1-9]\d{6,14})$/;
const NAME = /^\w{1,32}$/;

export type Checked<T> = { ok: true; value: T } | { ok: false; key: string; values?: Record<string, unknown> };
const refuse = (key: string, values?: Record<string, unknown>): Checked<never> => ({ ok: false, key, values });

/** The numbers of a text: split on new lines, commas (either width), semicolons and spaces; duplicates once. */
export function parsePhones(text: string): Checked<string[]> {
  const phones = [
    ...new Set(
      text
        .split(/[\s,;\uFF0C\uFF1B]+/)
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
  if (!phones.length) return refuse('smsSend.phonesRequired');
  if (phones.length > MAX_PHONES) return refuse('smsSend.phonesTooMany', { max: MAX_PHONES });
  const bad = phones.find((p) => !PHONE.test(p));
  if (bad) return refuse('smsSend.phoneBad', { phone: bad });
  return { ok: true, value: phones };
}

/** `name=value` lines (or `&`-joined), or a JSON object; empty → no parameters. */
export function parseParams(text: string): Checked<Record<string, string>> {
  const trimmed = text.trim();
  if (!trimmed) return { ok: true, value: {} };
  let entries: [string, unknown][];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(trimmed) as unknown;
    } catch {
      return refuse('smsSend.paramsBadJson');
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) return refuse('smsSend.paramsBadJson');
    entries = Object.entries(v as Record<string, unknown>);
  } else {
    entries = [];
    const lines = trimmed.split(/\r?\n|&/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line) continue;
      const eq = line.indexOf('=');
      if (eq <= 0) return refuse('smsSend.paramsBadLine', { line: i + 1 });
      const name = line.slice(0, eq).trim();
      if (entries.some(([n]) => n === name)) return refuse('smsSend.paramsDuplicate', { name });
      entries.push([name, line.slice(eq + 1).trim()]);
    }
  }
  if (entries.length > MAX_PARAMS) return refuse('smsSend.paramsTooMany', { max: MAX_PARAMS });
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!NAME.test(name)) return refuse('smsSend.paramsBadName', { name });
    if ((typeof value !== 'string' && typeof value !== 'number') || String(value).length > 200)
      return refuse('smsSend.paramsBadValue', { name });
    out[name] = String(value);
  }
  return { ok: true, value: out };
}
