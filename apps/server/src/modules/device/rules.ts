import { and, eq, inArray } from 'drizzle-orm';
import { fill, type Msg } from '@atrium/contract';
import {
  checkConfigValue,
  configDefaultOf,
  configOptionsOf,
  configValueTexts,
  type ConfigValue,
} from '@atrium/contract/resources/device/configtemplateitem';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { region } from '../region/index.ts';
import { deviceTexts as texts } from './messages.ts';
import { deviceDict, type configTemplateItem } from './table.ts';

/**
 * The rules of device records (docs/devices.md "Device records"): GB/T 28181 codes against the region table and the
 * device dictionary, config values against their template, stream URLs without their credentials.
 */

const fieldError = (field: string, m: Msg) => badRequest(m, [{ field, message: m }]);

/** The parts of a 20-digit GB/T 28181 code: district (digits 1–6) and type (digits 11–13). */
export function codeParts(code: string): { district: string; type: string } | null {
  if (!/^\d{20}$/.test(code)) return null;
  return { district: code.slice(0, 6), type: code.slice(10, 13) };
}

/** The live level-1 dictionary entry of a device type, or none. */
export async function deviceTypeEntry(tx: Db, tenantId: string, type: string) {
  const [row] = await tx
    .select({ id: deviceDict.id })
    .from(deviceDict)
    .where(
      and(
        eq(deviceDict.tenantId, tenantId),
        eq(deviceDict.parentId, '0'),
        eq(deviceDict.code, type),
        eq(deviceDict.isDeleted, 0),
      ),
    )
    .limit(1);
  return row;
}

/** A live dictionary entry with this code directly under `parentId`. */
async function childEntry(tx: Db, tenantId: string, parentId: string, code: string) {
  const [row] = await tx
    .select({ id: deviceDict.id })
    .from(deviceDict)
    .where(
      and(
        eq(deviceDict.tenantId, tenantId),
        eq(deviceDict.parentId, parentId),
        eq(deviceDict.code, code),
        eq(deviceDict.isDeleted, 0),
      ),
    )
    .limit(1);
  return row;
}

/**
 * A device's code, type, manufacturer, model and region together: the code's district is a district of the region
 * table, its type digits equal `deviceType`, which is a level-1 dictionary code; manufacturer and model are entries
 * under it; the region exists and lies within the code's district. Throws a 400 naming the field.
 */
export async function checkDeviceIdentity(
  tx: Db,
  tenantId: string,
  d: {
    deviceCode: string;
    deviceType: string;
    manufacturer?: string | null;
    model?: string | null;
    regionCode: string;
  },
): Promise<void> {
  const parts = codeParts(d.deviceCode);
  if (!parts) throw fieldError('deviceCode', texts.codeFormat);
  const regions = await tx
    .select({ code: region.code, level: region.level })
    .from(region)
    .where(and(inArray(region.code, [...new Set([parts.district, d.regionCode])]), eq(region.isDeleted, 0)));
  const district = regions.find((r) => r.code === parts.district);
  if (!district || district.level !== 3)
    throw fieldError('deviceCode', fill(texts.codeDistrict, { district: parts.district }));
  if (parts.type !== d.deviceType)
    throw fieldError('deviceType', fill(texts.codeType, { type: parts.type, deviceType: d.deviceType }));
  const typeEntry = await deviceTypeEntry(tx, tenantId, d.deviceType);
  if (!typeEntry) throw fieldError('deviceType', fill(texts.typeUnknown, { type: d.deviceType }));
  if (!regions.some((r) => r.code === d.regionCode))
    throw fieldError('regionCode', fill(texts.regionUnknown, { region: d.regionCode }));
  if (!d.regionCode.startsWith(parts.district))
    throw fieldError('regionCode', fill(texts.regionMismatch, { district: parts.district }));
  await checkMakerModel(tx, tenantId, typeEntry.id, d.manufacturer, d.model);
}

/** Manufacturer (level 2 under the type) and model (level 3 under the manufacturer), when given. */
export async function checkMakerModel(
  tx: Db,
  tenantId: string,
  typeEntryId: string,
  manufacturer: string | null | undefined,
  model?: string | null,
): Promise<void> {
  if (!manufacturer) {
    if (model) throw fieldError('model', texts.modelWithoutMaker);
    return;
  }
  const maker = await childEntry(tx, tenantId, typeEntryId, manufacturer);
  if (!maker) throw fieldError('manufacturer', fill(texts.manufacturerUnknown, { code: manufacturer }));
  if (model && !(await childEntry(tx, tenantId, maker.id, model)))
    throw fieldError('model', fill(texts.modelUnknown, { code: model }));
}

// ——— Config values: the rules and texts are the contract's (configtemplateitem.ts), shared with the config form ———

export type ConfigItem = Pick<
  typeof configTemplateItem.$inferSelect,
  'itemKey' | 'itemName' | 'valueType' | 'defaultValue' | 'options' | 'min' | 'max' | 'required'
>;
export type { ConfigValue };

/**
 * The effective config of a device: the template's defaults overlaid by the device's values. With `strict`, a value
 * of an unknown item, of the wrong type, out of range or not among the options, or a required item left without a
 * value is a 400 naming the item; without it (answers), whatever fits is shown.
 */
export function effectiveConfig(
  items: ConfigItem[],
  values: Record<string, unknown> | null | undefined,
  strict: boolean,
): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  const byKey = new Map(items.map((i) => [i.itemKey, i]));
  const given = values ?? {};
  if (strict)
    for (const key of Object.keys(given))
      if (!byKey.has(key)) throw fieldError('configValues', fill(configValueTexts.configUnknown, { key }));
  for (const item of items) {
    const raw = given[item.itemKey];
    const value = raw === null || raw === undefined ? configDefaultOf(item) : raw;
    if (value === undefined || value === '') {
      if (strict && item.required === 1)
        throw fieldError('configValues', fill(configValueTexts.configRequired, { name: item.itemName }));
      continue;
    }
    const checked = checkConfigValue(item, value);
    if ('error' in checked) {
      if (strict) throw fieldError('configValues', checked.error);
      continue;
    }
    out[item.itemKey] = checked.ok;
  }
  return out;
}

/** Config values as sent (a JSON text of an object), or a 400. */
export function parseConfigValues(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw fieldError('configValues', configValueTexts.configJson);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw fieldError('configValues', configValueTexts.configJson);
  return parsed as Record<string, unknown>;
}

/** An item's own definition: an enum has options, min ≤ max, and its default is a valid value. */
export function checkItemDefinition(item: ConfigItem): void {
  if (item.valueType === 'enum' && !configOptionsOf(item).length)
    throw fieldError('options', configValueTexts.enumNeedsOptions);
  if (item.min !== null && item.max !== null && item.min > item.max)
    throw fieldError('min', configValueTexts.minAboveMax);
  const d = configDefaultOf(item);
  if (d === undefined) return;
  const checked = checkConfigValue(item, d);
  if ('error' in checked) throw fieldError('defaultValue', checked.error);
}

// ——— Stream URLs ———

/** A URL with its user and password taken out (what the console shows), and whether it had any. */
export function splitCredentials(raw: string): { url: URL; bare: string; hasCredentials: boolean } | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const hasCredentials = url.username !== '' || url.password !== '';
  const bare = new URL(url.toString());
  bare.username = '';
  bare.password = '';
  return { url, bare: bare.toString(), hasCredentials };
}

/** A stream URL's scheme is rtsp, http or https. */
export const streamScheme = (u: URL) => ['rtsp:', 'http:', 'https:'].includes(u.protocol);

/** The error of a bad URL field. */
export const urlError = (field: string, m: Msg) => new AppError(400, m, [{ field, message: m }]);
