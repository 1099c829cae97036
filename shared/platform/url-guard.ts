import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * SSRF guard for webhook endpoint URLs (docs/api-guide.md#events-and-webhooks: "must be HTTPS and publicly
 * reachable"). Checked when an endpoint is created or its URL changes, and again at send time
 * against the address actually connected to, because DNS can change in between (rebinding).
 *
 * Deny by default: an address passes only when ipaddr.js calls it ordinary `unicast` (and, for
 * IPv6, it lies in 2000::/3, the only block allocated for global unicast), or when it embeds an
 * IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) that passes itself.
 *
 * Port policy: 443, or 1024–65535. Ports below 1024 other than 443 are refused: they are the
 * well-known services (SSH 22, SMTP 25, DNS 53, HTTP 80…) that a webhook sender must not be
 * turned against, while receivers on 8443 or 3000 behind a tunnel keep working.
 */

export type Resolve = (hostname: string) => Promise<string[]>;

/**
 * Which receivers a stage delivers to. `public` is the rule above, and the only one a deployed
 * stage has (shared/platform/config.ts). The local stack, a development server on your own machine,
 * defaults to `loopback`: the public rule, plus receivers on this machine (127.0.0.0/8, ::1,
 * `localhost`) over http or https on any port. `private` (asked for explicitly) also permits
 * private-network addresses and local names.
 */
export type WebhookTargetPolicy = 'public' | 'loopback' | 'private';

export const WEBHOOK_TARGET_POLICIES: readonly WebhookTargetPolicy[] = ['public', 'loopback', 'private'];

export interface CheckWebhookUrlOptions {
  /** All addresses the host resolves to (A and AAAA). `lookupAllAddresses` is the real one. */
  resolve: Resolve;
  /** Default `public`. Whatever the policy, credentials in the URL and other schemes stay refused. */
  targets?: WebhookTargetPolicy;
}

export type WebhookUrlCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

// Names that only ever mean "this machine" or "this private network", refused before any lookup
// (RFC 6761 localhost, RFC 6762 .local, RFC 8375 home.arpa, the cloud metadata `.internal` names).
const LOCAL_NAME_SUFFIXES = ['localhost', 'local', 'localdomain', 'internal', 'home.arpa'];

/**
 * Checks a webhook URL at creation or update. `reason` is a sentence for the 422 `validation_failed`
 * detail naming `url`.
 *
 * @example
 * await checkWebhookUrl('https://hooks.example.com/fleet', { resolve: lookupAllAddresses });
 * // { ok: true, url: URL, addresses: ['93.184.216.34'] }
 * await checkWebhookUrl('https://169.254.169.254/latest', { resolve: lookupAllAddresses });
 * // { ok: false, reason: 'host 169.254.169.254 is a link-local address' }
 */
export async function checkWebhookUrl(
  rawUrl: string,
  options: CheckWebhookUrlOptions,
): Promise<WebhookUrlCheck> {
  const targets = options.targets ?? 'public';
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'url is not a valid absolute URL' };
  }
  // A receiver on this machine needs neither TLS nor a public port.
  const relaxed = targets === 'private' || (targets === 'loopback' && namesThisMachine(url.hostname));

  if (url.protocol !== 'https:' && !(relaxed && url.protocol === 'http:')) {
    return { ok: false, reason: 'url must use https' };
  }
  // A secret in the URL would be stored, logged and shown back in get/list.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'url must not contain a user name or password' };
  }
  if (!relaxed && url.port !== '') {
    // WHATWG URL empties the port when it is the scheme's default, so '' here means 443.
    const port = Number(url.port);
    if (port !== 443 && port < 1024)
      return { ok: false, reason: `port ${port} is not allowed (use 443 or 1024–65535)` };
  }

  // WHATWG parsing has already turned 2130706433, 0x7f.0.0.1, 0177.0.0.1 and 127.1 into 127.0.0.1
  // for http(s), so a host is either dotted-decimal IPv4, a bracketed IPv6 literal, or a name.
  const host = url.hostname;
  const literal = host.startsWith('[')
    ? host.slice(1, -1)
    : ipaddr.IPv4.isValidFourPartDecimal(host)
      ? host
      : null;
  if (literal !== null) {
    const forbidden = relaxed ? null : isForbiddenAddress(literal);
    if (forbidden !== null) return { ok: false, reason: `host ${literal} is ${article(forbidden)} address` };
    return { ok: true, url, addresses: [literal] };
  }

  if (!relaxed) {
    const nameProblem = forbiddenHostname(host);
    if (nameProblem !== null) return { ok: false, reason: nameProblem };
  }

  let addresses: string[];
  try {
    addresses = await options.resolve(host);
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  if (targets === 'loopback' && relaxed) {
    // `localhost` is this machine by definition (RFC 6761); a resolver that says otherwise is not trusted.
    const elsewhere = addresses.find((address) => !isLoopbackAddress(address));
    if (elsewhere !== undefined) {
      return { ok: false, reason: `host ${host} resolves to ${elsewhere}, which is not this machine` };
    }
  }
  if (!relaxed) {
    // Every address counts: a client may connect to any of them, so one private record is enough.
    for (const address of addresses) {
      const forbidden = isForbiddenAddress(address);
      if (forbidden !== null) {
        return { ok: false, reason: `host ${host} resolves to ${address}, ${article(forbidden)} address` };
      }
    }
  }
  return { ok: true, url, addresses };
}

/** 127.0.0.0/8, ::1, or either IPv4-mapped: an address of this machine. */
export function isLoopbackAddress(ip: string): boolean {
  const forbidden = isForbiddenAddress(ip);
  return forbidden === 'loopback' || forbidden === 'loopback (IPv4-mapped)';
}

/** A loopback literal, or `localhost` and its subdomains (RFC 6761), trailing dot or not. */
function namesThisMachine(hostname: string): boolean {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(host)) return isLoopbackAddress(host);
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Why an IP address must not receive webhooks, or `null` when it is public unicast. Use it again at
 * send time on the address actually connected to (see `createGuardedLookup`).
 *
 * @example
 * isForbiddenAddress('10.1.2.3'); // 'private'
 * isForbiddenAddress('::ffff:127.0.0.1'); // 'loopback (IPv4-mapped)'
 * isForbiddenAddress('93.184.216.34'); // null
 */
export function isForbiddenAddress(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return 'invalid';
  const address = ipaddr.parse(ip);
  return address.kind() === 'ipv4'
    ? forbiddenIPv4(address as ipaddr.IPv4)
    : forbiddenIPv6(address as ipaddr.IPv6);
}

// Named before ipaddr.js's catch-all `reserved` so a refusal says which block it hit. The blocks
// are parsed at import, marked pure so that a bundle which never checks an address leaves them and
// ipaddr.js out (scripts/bundle-functions.ts).
const IPV4_NAMED_BLOCKS: ReadonlyArray<[string, [ipaddr.IPv4, number]]> = [
  ['documentation', /* @__PURE__ */ ipaddr.IPv4.parseCIDR('192.0.2.0/24')],
  ['documentation', /* @__PURE__ */ ipaddr.IPv4.parseCIDR('198.51.100.0/24')],
  ['documentation', /* @__PURE__ */ ipaddr.IPv4.parseCIDR('203.0.113.0/24')],
  ['benchmarking', /* @__PURE__ */ ipaddr.IPv4.parseCIDR('198.18.0.0/15')],
];

const IPV4_RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
};

function forbiddenIPv4(address: ipaddr.IPv4): string | null {
  for (const [name, block] of IPV4_NAMED_BLOCKS) if (address.match(block)) return name;
  const range = address.range();
  if (range === 'unicast') return null;
  // as112, amt, 240/4 and the rest: public in theory, never a webhook receiver in practice.
  return IPV4_RANGE_NAMES[range] ?? 'reserved';
}

const IPV6_GLOBAL_UNICAST = /* @__PURE__ */ ipaddr.IPv6.parseCIDR('2000::/3');
const IPV6_DOCUMENTATION = [
  /* @__PURE__ */ ipaddr.IPv6.parseCIDR('2001:db8::/32'),
  /* @__PURE__ */ ipaddr.IPv6.parseCIDR('3fff::/20'),
];
// RFC 8215 local-use NAT64: where the IPv4 sits depends on a local prefix length; refuse it whole.
const IPV6_LOCAL_NAT64 = /* @__PURE__ */ ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

const IPV6_RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  linkLocal: 'link-local',
  multicast: 'multicast',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  benchmarking: 'benchmarking',
};

function forbiddenIPv6(address: ipaddr.IPv6): string | null {
  const embedded = embeddedIPv4(address);
  if (embedded.length > 0) {
    for (const { ipv4, form } of embedded) {
      const forbidden = forbiddenIPv4(ipv4);
      if (forbidden !== null) return `${forbidden} (${form})`;
    }
    return null;
  }
  if (IPV6_DOCUMENTATION.some((block) => address.match(block))) return 'documentation';
  if (address.match(IPV6_LOCAL_NAT64)) return 'private (local-use NAT64)';
  const range = address.range();
  const named = IPV6_RANGE_NAMES[range];
  if (named !== undefined) return named;
  // Outside 2000::/3 nothing is allocated for global unicast (::/8 holds the deprecated
  // IPv4-compatible ::a.b.c.d form, e.g. ::7f00:1), so ipaddr.js's `unicast` is not enough.
  if (range === 'unicast' && address.match(IPV6_GLOBAL_UNICAST)) return null;
  return 'reserved';
}

/**
 * The IPv4 addresses an IPv6 address carries, for the forms that a host, a NAT64 gateway or a
 * 6to4/Teredo relay turns into IPv4 traffic. Such an address is as forbidden as what it carries.
 */
function embeddedIPv4(address: ipaddr.IPv6): Array<{ ipv4: ipaddr.IPv4; form: string }> {
  const part = (i: number) => address.parts[i] ?? 0;
  const ipv4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped':
      return [{ ipv4: address.toIPv4Address(), form: 'IPv4-mapped' }];
    case 'rfc6145':
      return [{ ipv4: ipv4(part(6), part(7)), form: 'IPv4-translated' }];
    case 'rfc6052':
      // The well-known 64:ff9b::/96 only; the local-use /48 is refused whole by the caller.
      return address.match(IPV6_LOCAL_NAT64) ? [] : [{ ipv4: ipv4(part(6), part(7)), form: 'NAT64' }];
    case '6to4':
      return [{ ipv4: ipv4(part(1), part(2)), form: '6to4' }];
    case 'teredo':
      // RFC 4380: the server's IPv4 in bits 32–63, the client's stored inverted in the last 32.
      return [
        { ipv4: ipv4(part(6) ^ 0xffff, part(7) ^ 0xffff), form: 'Teredo client' },
        { ipv4: ipv4(part(2), part(3)), form: 'Teredo server' },
      ];
    default:
      return [];
  }
}

function forbiddenHostname(host: string): string | null {
  // A trailing dot is the same name, fully qualified: 'localhost.' is still localhost.
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (LOCAL_NAME_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) {
    return `host ${host} is a local or internal name`;
  }
  // Single-label names ('metadata', 'intranet') resolve through the search domains of the network
  // we run in, i.e. to internal hosts.
  if (!name.includes('.')) return `host ${host} is not a fully qualified domain name`;
  return null;
}

function article(reason: string): string {
  // 'unique-local' takes 'a' (it is said "you-nique").
  return /^(?:[aeio]|u(?!ni))/i.test(reason) ? `an ${reason}` : `a ${reason}`;
}

/**
 * The real resolver: every A and AAAA address the system resolver returns for `hostname`.
 *
 * @example
 * await checkWebhookUrl(url, { resolve: lookupAllAddresses });
 */
export async function lookupAllAddresses(hostname: string): Promise<string[]> {
  const results = await dnsLookupAll(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** The `lookup` option of `http.request` / `https.request` (and `net.connect`). */
export type GuardedLookup = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions | number | undefined,
  callback: LookupCallback,
) => void;

/**
 * A `lookup` for `https.request` that refuses to connect to a forbidden address: the send-time
 * half of the guard. Checking the very address the socket connects to closes the DNS-rebinding
 * gap between `checkWebhookUrl` at creation and the delivery (a name that resolved to a public
 * address then may resolve to 127.0.0.1 now). Fails with code `ERR_WEBHOOK_FORBIDDEN_ADDRESS`.
 *
 * @example
 * https.request(url, { method: 'POST', lookup: createGuardedLookup(), timeout: 5000 });
 */
export function createGuardedLookup(
  options: { targets?: WebhookTargetPolicy; lookup?: typeof dnsLookup } = {},
): GuardedLookup {
  const targets = options.targets ?? 'public';
  const lookup = options.lookup ?? dnsLookup;
  return (hostname, lookupOptions, callback) => {
    // A bare number is the legacy `family` argument.
    const base: LookupOneOptions | LookupAllOptions =
      typeof lookupOptions === 'number' ? { family: lookupOptions } : (lookupOptions ?? {});
    // Always ask for every address so each one is checked, then answer in the shape the caller asked.
    lookup(hostname, { ...base, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (targets !== 'private') {
        for (const { address } of list) {
          const forbidden = isForbiddenAddress(address);
          if (forbidden !== null && !(targets === 'loopback' && isLoopbackAddress(address))) {
            const refusal: NodeJS.ErrnoException = new Error(
              `webhook host ${hostname} resolved to ${address}, ${article(forbidden)} address`,
            );
            refusal.code = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';
            return callback(refusal, []);
          }
        }
      }
      if ('all' in base && base.all) return callback(null, list);
      const first = list[0];
      if (first === undefined) {
        const none: NodeJS.ErrnoException = new Error(`webhook host ${hostname} has no address`);
        none.code = 'ENOTFOUND';
        return callback(none, []);
      }
      return callback(null, first.address, first.family);
    });
  };
}
