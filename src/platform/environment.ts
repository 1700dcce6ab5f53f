// Whether push may run on the host the page is served from. Push is kept off on development hosts so that a
// local build never registers a messaging service worker against the real project.

/** A hostname that cannot be a domain name: WHATWG URL parsing treats a numeric last label as an IPv4 host. */
const NUMERIC_LAST_LABEL = /(^|\.)(\d+|0x[0-9a-f]*)$/i;
// Hex groups, colons and an embedded dotted quad, with an optional zone id (fe80::1%en0).
const IPV6_LITERAL = /^[0-9a-f:.]*:[0-9a-f:.]*(%.+)?$/i;
const BRACKETED = /^\[([^\]]*)\](?::\d*)?$/;
const HOST_WITH_PORT = /^([^:]*):\d*$/;

/** The bare hostname: lower case, brackets of an IPv6 literal, a trailing dot and a stray :port removed. */
function normalizeHostname(hostname: string): string {
  let host = hostname.trim().toLowerCase();
  const bracketed = BRACKETED.exec(host);
  if (bracketed) return bracketed[1] ?? '';
  // Tolerate location.host being passed for location.hostname: one colon can only be a port, while an IPv6
  // literal has at least two.
  const withPort = HOST_WITH_PORT.exec(host);
  if (withPort) host = withPort[1] ?? '';
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/**
 * Whether the host is a development host: localhost, a *.localhost name, or an IPv4/IPv6 address (which covers
 * 127.x, 0.0.0.0 and ::1). An empty host (file: pages) counts too, since push cannot work there.
 */
export function isLocalOrIpHost(hostname: string): boolean {
  const host = normalizeHostname(hostname);
  if (host === '') return true;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host.includes(':')) return IPV6_LITERAL.test(host);
  return NUMERIC_LAST_LABEL.test(host);
}

/**
 * spec §5: push is enabled only when the page host is not localhost or an IP address, unless the override flag
 * is on (it is forced on, so push is on in production whatever the host).
 */
export function isPushEnabledForHost(hostname: string, overrideOn: boolean): boolean {
  return overrideOn || !isLocalOrIpHost(hostname);
}

/** The page's hostname, or '' when there is no location to ask. */
export function browserHostname(): string {
  try {
    if (typeof location === 'undefined') return '';
    return typeof location.hostname === 'string' ? location.hostname : '';
  } catch {
    return '';
  }
}
