import { lookup } from 'node:dns/promises';
import { and, eq } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import { fill, type Msg } from '@atrium/contract';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import {
  checkAddress,
  inNetworks,
  isPublic,
  normaliseCidr,
  parseAddress,
  type AddressRefusal,
} from '../../platform/addresses.ts';
import { deviceTexts as texts } from './messages.ts';
import { cameraNetwork } from './table.ts';

/**
 * Where the server may connect for a camera (docs/devices.md "Camera addresses"): the host of a stream or ONVIF URL
 * is resolved and every address it resolves to is checked — never loopback without a listing, link-local, the
 * unspecified address, multicast or broadcast; private ranges only inside the tenant's camera networks; never the
 * server's own HTTP or MQTT port. Checked when a camera is saved and again before each play and PTZ command, which
 * then connect to the address checked (`pinned`), not to a second resolution of the name.
 */

export { checkAddress, inNetworks, isPublic, normaliseCidr, type AddressRefusal };

export type AddressCheck = { ok: true; url: URL; pinned: string } | ({ ok: false } & AddressRefusal);

const DEFAULT_PORTS: Record<string, number> = { 'rtsp:': 554, 'rtsps:': 322, 'http:': 80, 'https:': 443 };
/** How long a name may take to resolve. */
const LOOKUP_MS = 3000;

/** The tenant's camera networks (a small indexed read; each play and PTZ command reads it again). */
export async function cameraNetworksOf(s: Services, tenantId: string): Promise<string[]> {
  const rows = await withTenant(s.db, tenantId, (tx) =>
    tx
      .select({ cidr: cameraNetwork.cidr })
      .from(cameraNetwork)
      .where(and(eq(cameraNetwork.tenantId, tenantId), eq(cameraNetwork.isDeleted, 0))),
  );
  return rows.map((r) => r.cidr);
}

/** The ports this server listens on: its HTTP port (configured and bound) and its embedded MQTT broker's. */
const serverPorts = new WeakMap<Services, Set<number>>();
export function ownPorts(s: Services): Set<number> {
  let set = serverPorts.get(s);
  if (!set) {
    set = new Set([s.config.port, s.config.mqtt.port ?? 0].filter((p) => p > 0));
    serverPorts.set(s, set);
  }
  return set;
}
/** A port the server was found listening on (a port chosen by the system at start). */
export function addOwnPort(s: Services, port: number | undefined) {
  if (port && port > 0) ownPorts(s).add(port);
}

/** The host's addresses: the literal itself, or every address the name resolves to. */
async function addressesOf(host: string): Promise<string[] | null> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(bare)) return [bare];
  if (!bare) return null;
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      lookup(bare, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_MS);
      }),
    ]);
    return found.length ? found.map((f) => f.address) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A camera URL checked for the tenant: every address of its host allowed, its port not the server's. The answer's
 * `pinned` is the URL with the host replaced by the first address checked — what ffmpeg and ONVIF connect to — except
 * for https, whose certificate names the host: that one keeps its name (resolved and checked just before).
 */
export async function checkCameraUrl(
  s: Services,
  tenantId: string,
  raw: string,
  networks?: string[],
): Promise<AddressCheck> {
  const url = new URL(raw);
  const port = url.port ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 0);
  if (ownPorts(s).has(port)) return { ok: false, reason: 'serverPort', port };
  const addresses = await addressesOf(url.hostname);
  if (!addresses) return { ok: false, reason: 'unresolved', host: url.hostname };
  const nets = networks ?? (await cameraNetworksOf(s, tenantId));
  for (const address of addresses) {
    const refused = checkAddress(address, nets);
    if (refused) return { ok: false, ...refused };
  }
  const pinned = new URL(url.toString());
  if (url.protocol !== 'https:') {
    const first = parseAddress(addresses[0]);
    pinned.hostname = first.kind() === 'ipv6' ? `[${first.toString()}]` : first.toString();
  }
  return { ok: true, url, pinned: pinned.toString() };
}

/** The refusal as staff read it (a client account reads one text: `deviceTexts.addressNotAllowed`). */
export function refusalText(r: AddressRefusal): Msg {
  switch (r.reason) {
    case 'unresolved':
      return fill(texts.addressUnresolved, { host: r.host });
    case 'forbidden':
      return fill(texts.addressForbidden, { address: r.address });
    case 'private':
      return fill(texts.addressPrivate, { address: r.address });
    default:
      return fill(texts.addressServerPort, { port: r.port });
  }
}
