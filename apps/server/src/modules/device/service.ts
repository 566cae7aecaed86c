import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { fill, msg, type Msg } from '@atrium/contract';
import { configtemplateitem } from '@atrium/contract/resources/device/configtemplateitem';
import type { Db } from '../../db/client.ts';
import type { Row } from '../../platform/crud.ts';
import { badRequest } from '../../platform/errors.ts';
import { checkAddress, normaliseCidr } from './address.ts';
import { deviceTexts as texts } from './messages.ts';
import { checkItemDefinition, checkMakerModel, deviceTypeEntry, effectiveConfig, type ConfigItem } from './rules.ts';
import { cameraDevice, configTemplate, configTemplateItem, deviceDict } from './table.ts';

/**
 * The rules and SQL of the device records other than cameras' (docs/devices.md "Device records"): the dictionary,
 * config templates and their items, camera networks. Each takes the transaction and its input: a test calls it
 * without the app. Cameras and NVRs: cameras.ts; NVR channels: channels.ts.
 */

/** Live rows of a tenant. */
export const live = <T extends { isDeleted: PgColumn; tenantId: PgColumn }>(t: T, tenantId: string) =>
  and(eq(t.tenantId, tenantId), eq(t.isDeleted, 0));
export const fieldError = (field: string, m: Msg) => badRequest(m, [{ field, message: m }]);

export type TemplateItems = Map<string, ConfigItem[]>;

/** The items of some templates, by template id. */
export async function itemsOf(tx: Db, tenantId: string, templateIds: string[]): Promise<TemplateItems> {
  const out: TemplateItems = new Map();
  if (!templateIds.length) return out;
  const rows = await tx
    .select()
    .from(configTemplateItem)
    .where(and(live(configTemplateItem, tenantId), inArray(configTemplateItem.templateId, templateIds)))
    .orderBy(asc(configTemplateItem.sort), asc(configTemplateItem.id));
  for (const r of rows) out.set(r.templateId, [...(out.get(r.templateId) ?? []), r]);
  return out;
}

/** The answered form of a device's config: the values as JSON text, and the effective config. */
export function configShape(row: Record<string, unknown>, items: TemplateItems) {
  const values = row.configValues as Record<string, unknown> | string | null | undefined;
  const parsed = typeof values === 'string' ? (JSON.parse(values) as Record<string, unknown>) : (values ?? null);
  const templateId = row.configTemplateId ? String(row.configTemplateId) : null;
  return {
    configValues: parsed ? JSON.stringify(parsed) : null,
    effectiveConfig: templateId ? effectiveConfig(items.get(templateId) ?? [], parsed, false) : null,
  };
}

// ——— Device dictionary ———

/**
 * A new dictionary entry: a device type (root) has a 3-digit code; below, three levels at most (type, maker,
 * model). Answers what the save sets, if anything.
 */
export async function checkDictEntry(tx: Db, tenantId: string, input: Record<string, unknown>) {
  const parentId = String(input.parentId ?? '0') || '0';
  if (parentId === '0') {
    if (!/^\d{3}$/.test(String(input.code ?? ''))) throw fieldError('code', texts.dictTypeCode);
    return { parentId: '0' };
  }
  // Three levels: a parent may itself be below the root, but not two levels down.
  const [parent] = await tx
    .select({ parentId: deviceDict.parentId })
    .from(deviceDict)
    .where(and(live(deviceDict, tenantId), eq(deviceDict.id, parentId)));
  if (parent && parent.parentId !== '0') {
    const [grand] = await tx
      .select({ parentId: deviceDict.parentId })
      .from(deviceDict)
      .where(and(eq(deviceDict.tenantId, tenantId), eq(deviceDict.id, parent.parentId)));
    if (grand && grand.parentId !== '0') throw fieldError('parentId', texts.dictTooDeep);
  }
  return undefined;
}

/** Whether devices or templates use a dictionary entry's code at its level. */
export async function dictEntryInUse(tx: Db, tenantId: string, r: Row): Promise<boolean> {
  const code = String(r.code);
  const path: Row[] = [r];
  while (String(path[0].parentId) !== '0' && path.length < 4) {
    const [p] = await tx
      .select()
      .from(deviceDict)
      .where(and(eq(deviceDict.tenantId, tenantId), eq(deviceDict.id, String(path[0].parentId))));
    if (!p) break;
    path.unshift(p);
  }
  const [type, maker] = path.map((p) => String(p.code));
  const devices = async (where: SQL | undefined) =>
    (
      await tx
        .select({ id: cameraDevice.id })
        .from(cameraDevice)
        .where(and(live(cameraDevice, tenantId), where))
        .limit(1)
    ).length > 0;
  const templates = async (where: SQL | undefined) =>
    (
      await tx
        .select({ id: configTemplate.id })
        .from(configTemplate)
        .where(and(live(configTemplate, tenantId), where))
        .limit(1)
    ).length > 0;
  if (path.length === 1)
    return (await devices(eq(cameraDevice.deviceType, code))) || (await templates(eq(configTemplate.deviceType, code)));
  if (path.length === 2)
    return (
      (await devices(and(eq(cameraDevice.deviceType, type), eq(cameraDevice.manufacturer, code)))) ||
      (await templates(and(eq(configTemplate.deviceType, type), eq(configTemplate.manufacturer, code))))
    );
  return devices(
    and(eq(cameraDevice.deviceType, type), eq(cameraDevice.manufacturer, maker), eq(cameraDevice.model, code)),
  );
}

/** Entries in use are not removed: the first one refuses the removal, named. */
export async function refuseDictRemoval(tx: Db, tenantId: string, rows: Row[]): Promise<void> {
  for (const r of rows)
    if (await dictEntryInUse(tx, tenantId, r)) throw badRequest(fill(texts.dictInUse, { name: String(r.name) }));
}

/**
 * Every entry (or those under one parent, or under one device type's entry) as a flat list, named in the caller's
 * language: the pickers' source.
 */
export async function dictList(tx: Db, tenantId: string, q: { parentId?: string; deviceType?: string }, en: boolean) {
  let parent = q.parentId;
  if (q.deviceType) {
    const entry = await deviceTypeEntry(tx, tenantId, q.deviceType);
    if (!entry) return [];
    parent = entry.id;
  }
  const rows = await tx
    .select()
    .from(deviceDict)
    .where(and(live(deviceDict, tenantId), parent ? eq(deviceDict.parentId, parent) : undefined))
    .orderBy(asc(deviceDict.parentId), asc(deviceDict.sort), asc(deviceDict.id))
    .limit(5000);
  return rows.map((r) => ({
    id: r.id,
    parentId: r.parentId,
    code: r.code,
    name: en && r.nameEn ? r.nameEn : r.name,
    nameEn: r.nameEn,
    sort: r.sort,
  }));
}

// ——— Config templates and items ———

/** A template names a known device type, and a maker of that type if any. */
export async function checkTemplate(tx: Db, tenantId: string, input: Record<string, unknown>): Promise<void> {
  const type = String(input.deviceType);
  const entry = await deviceTypeEntry(tx, tenantId, type);
  if (!entry) throw fieldError('deviceType', fill(texts.typeUnknown, { type }));
  await checkMakerModel(tx, tenantId, entry.id, (input.manufacturer as string | null | undefined) || null);
}

/** Templates a device uses are not removed (the first named); the items of removed templates go with them. */
export async function removeTemplates(
  tx: Db,
  tenantId: string,
  ids: string[],
  rows: Row[],
  by: { userId: string; now: Date },
): Promise<void> {
  const [used] = await tx
    .select({ templateId: cameraDevice.configTemplateId })
    .from(cameraDevice)
    .where(and(live(cameraDevice, tenantId), inArray(cameraDevice.configTemplateId, ids)))
    .limit(1);
  if (used) {
    const name = rows.find((r) => r.id === String(used.templateId))?.name;
    throw badRequest(fill(texts.templateInUse, { name: String(name ?? '') }));
  }
  await tx
    .update(configTemplateItem)
    .set({ isDeleted: 1, updateUser: by.userId, updateTime: by.now })
    .where(and(live(configTemplateItem, tenantId), inArray(configTemplateItem.templateId, ids)));
}

/** Enabled templates (of one device type) for pickers. */
export function templateOptions(tx: Db, tenantId: string, deviceType: string | undefined) {
  return tx
    .select({
      id: configTemplate.id,
      name: configTemplate.name,
      deviceType: configTemplate.deviceType,
      manufacturer: configTemplate.manufacturer,
    })
    .from(configTemplate)
    .where(
      and(
        live(configTemplate, tenantId),
        eq(configTemplate.status, 1),
        deviceType ? eq(configTemplate.deviceType, deviceType) : undefined,
      ),
    )
    .orderBy(asc(configTemplate.name))
    .limit(1000);
}

/** An item belongs to a live template of the tenant, and its definition (type, default, options, range) holds. */
export async function checkItem(
  tx: Db,
  tenantId: string,
  input: Record<string, unknown>,
  existing: Row | null,
): Promise<void> {
  const templateId = existing ? String(existing.templateId) : String(input.templateId);
  const [t] = await tx
    .select({ id: configTemplate.id })
    .from(configTemplate)
    .where(and(live(configTemplate, tenantId), eq(configTemplate.id, templateId)));
  if (!t) throw fieldError('templateId', msg('refNotFound', { label: configtemplateitem.fields.templateId.label }));
  const merged = { ...(existing ?? {}), ...input } as Record<string, unknown>;
  checkItemDefinition({
    itemKey: String(merged.itemKey),
    itemName: String(merged.itemName),
    valueType: String(merged.valueType),
    defaultValue: (merged.defaultValue as string | null) ?? null,
    options: (merged.options as string | null) ?? null,
    min: (merged.min as number | null) ?? null,
    max: (merged.max as number | null) ?? null,
    required: Number(merged.required ?? 0),
  });
}

/** A template's items as the camera form's config fields. */
export async function configFields(tx: Db, tenantId: string, templateId: string) {
  const items = await itemsOf(tx, tenantId, [templateId]);
  return (items.get(templateId) ?? []).map((i) => ({
    itemKey: i.itemKey,
    itemName: i.itemName,
    valueType: i.valueType,
    defaultValue: i.defaultValue,
    options: i.options,
    unit: (i as { unit?: string | null }).unit ?? null,
    min: i.min,
    max: i.max,
    required: i.required,
  }));
}

// ——— Camera networks (docs/devices.md "Camera addresses") ———

/** A network's range in its stored form; a range that is never a camera's (link-local, multicast, …) is refused. */
export function checkNetwork(input: Record<string, unknown>) {
  if (!('cidr' in input)) return undefined;
  const cidr = normaliseCidr(String(input.cidr ?? ''));
  if (!cidr) throw fieldError('cidr', texts.cidrBad);
  // A range that is never a camera's (link-local, multicast, 0.0.0.0/…) is not listed: it would allow nothing.
  if (checkAddress(cidr.split('/')[0], [cidr])?.reason === 'forbidden') throw fieldError('cidr', texts.cidrNever);
  return { cidr };
}
