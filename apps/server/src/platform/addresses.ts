import ipaddr from 'ipaddr.js';

/**
 * The address rules of every connection the server makes to an address a user typed (docs/devices.md "Camera
 * addresses"; object storage endpoints, docs/system-api.md "Files"): never link-local, the unspecified address,
 * multicast or broadcast; private ranges (loopback included) only inside the networks the caller allows.
 */

export type AddressRefusal =
  /** The name does not resolve (or not within the time allowed). */
  | { reason: 'unresolved'; host: string }
  /** Link-local, unspecified, multicast, broadcast: never. */
  | { reason: 'forbidden'; address: string }
  /** A private (or loopback, or otherwise not public) address outside the tenant's camera networks. */
  | { reason: 'private'; address: string }
  /** The server's own HTTP or MQTT port. */
  | { reason: 'serverPort'; port: number };

/** Never reached, whatever the networks allowed. */
const NEVER = new Set(['unspecified', 'linkLocal', 'multicast', 'broadcast']);

/** The address as ipaddr.js reads it, IPv4-mapped IPv6 taken as the IPv4 address it carries. */
export const parseAddress = (address: string) => ipaddr.process(address);

/** A public address: IPv4 unicast outside every special range, or IPv6 global unicast (2000::/3) likewise. */
export function isPublic(address: string): boolean {
  const a = parseAddress(address);
  if (a.range() !== 'unicast') return false;
  return a.kind() === 'ipv4' || (a as ipaddr.IPv6).parts[0] >> 13 === 1;
}

/** A CIDR normalised to its network address (`10.1.2.3/8` → `10.0.0.0/8`), or null when it is not one. */
export function normaliseCidr(text: string): string | null {
  try {
    const [addr, bits] = ipaddr.parseCIDR(text.trim());
    const net =
      addr.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(text.trim())
        : ipaddr.IPv6.networkAddressFromCIDR(text.trim());
    return `${net.toString()}/${bits}`;
  } catch {
    return null;
  }
}

/** Whether an address lies in one of the networks (CIDR texts; a malformed one matches nothing). */
export function inNetworks(address: string, cidrs: string[]): boolean {
  const a = parseAddress(address);
  for (const c of cidrs) {
    try {
      const range = ipaddr.parseCIDR(c);
      if (range[0].kind() === a.kind() && a.match(range)) return true;
    } catch {
      // Not a CIDR: it allows nothing.
    }
  }
  return false;
}

/** One address against the rules (without DNS). */
export function checkAddress(address: string, networks: string[]): AddressRefusal | null {
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = parseAddress(address);
  } catch {
    return { reason: 'forbidden', address };
  }
  const shown = a.toString();
  if (NEVER.has(a.range())) return { reason: 'forbidden', address: shown };
  if (isPublic(shown)) return null;
  return inNetworks(shown, networks) ? null : { reason: 'private', address: shown };
}
