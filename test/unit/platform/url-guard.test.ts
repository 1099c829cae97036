import type { LookupAddress, lookup as realLookup } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import {
  checkWebhookUrl,
  createGuardedLookup,
  isForbiddenAddress,
  isLoopbackAddress,
  type WebhookTargetPolicy,
} from '#shared/platform/url-guard.ts';

/** A fake DNS: each name maps to its A/AAAA records; unknown names do not resolve. */
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'v6.hooks.example.com': ['2606:4700::1111'],
  'dual.hooks.example.com': ['93.184.216.34', '2606:4700::1111'],
  'rebind.attacker.test': ['127.0.0.1'],
  'intranet.attacker.test': ['10.0.0.5'],
  'router.attacker.test': ['192.168.1.1'],
  'vpc.attacker.test': ['172.16.0.10'],
  'metadata.attacker.test': ['169.254.169.254'],
  'cgnat.attacker.test': ['100.64.0.1'],
  'v6loopback.attacker.test': ['::1'],
  'ula.attacker.test': ['fd00::1'],
  'mapped.attacker.test': ['::ffff:10.0.0.1'],
  // One public record and one private: a client may pick either, so the host is refused.
  'mixed.attacker.test': ['93.184.216.34', '10.0.0.5'],
  'mixed6.attacker.test': ['2606:4700::1111', 'fe80::1'],
};
const resolve = vi.fn(async (host: string) => {
  const records = DNS[host];
  if (records === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return records;
});

const check = (url: string, targets: WebhookTargetPolicy = 'public') =>
  checkWebhookUrl(url, { resolve, targets });

describe('isForbiddenAddress', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    // IPv6
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:db8:ffff::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['fec0::1', 'site-local'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    // ipaddr.js reads the dotted ::a.b.c.d spelling as IPv4-mapped (URL parsing turns it into
    // ::a00:1, reserved, before we see it); refused either way.
    ['::10.0.0.1', 'private (IPv4-mapped)'],
    ['::a00:1', 'reserved'],
    ['4000::1', 'reserved'],
    // IPv6 carrying an IPv4 address: judged by the IPv4 address.
    ['::ffff:10.0.0.1', 'private (IPv4-mapped)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped)'],
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped)'],
    ['::ffff:a9fe:a9fe', 'link-local (IPv4-mapped)'],
    ['::ffff:0:c0a8:101', 'private (IPv4-translated)'],
    ['64:ff9b::10.0.0.1', 'private (NAT64)'],
    ['64:ff9b::7f00:1', 'loopback (NAT64)'],
    ['64:ff9b:1::1', 'private (local-use NAT64)'],
    ['2002:a00:1::1', 'private (6to4)'],
    ['2002:7f00:1::', 'loopback (6to4)'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private (Teredo client)'],
    ['2001:0:a00:1:8000:63bf:a247:2bcb', 'private (Teredo server)'],
    // Not an address at all.
    ['not-an-ip', 'invalid'],
    ['', 'invalid'],
  ])('refuses %s (%s)', (ip, reason) => {
    // Act / Assess
    expect(isForbiddenAddress(ip)).toBe(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822',
    '2002:5db8:d822::1',
    '2001:0:4136:e378:8000:63bf:a247:2bcb',
  ])('allows public unicast %s', (ip) => {
    // Act / Assess
    expect(isForbiddenAddress(ip)).toBeNull();
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1'])('%s is this machine', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(true);
  });

  it.each(['10.0.0.1', '169.254.169.254', '0.0.0.0', '::', '2002:7f00:1::', '93.184.216.34', 'localhost'])(
    '%s is not',
    (ip) => {
      expect(isLoopbackAddress(ip)).toBe(false);
    },
  );
});

describe('checkWebhookUrl', () => {
  describe('allows', () => {
    it('an https URL whose host resolves to public addresses, returning them all', async () => {
      // Act
      const result = await check('https://dual.hooks.example.com/fleet/events?x=1');

      // Assess
      expect(result).toEqual({
        ok: true,
        url: new URL('https://dual.hooks.example.com/fleet/events?x=1'),
        addresses: ['93.184.216.34', '2606:4700::1111'],
      });
    });

    it.each([
      ['https://hooks.example.com/', ['93.184.216.34']],
      ['https://v6.hooks.example.com/', ['2606:4700::1111']],
      ['https://93.184.216.34/hook', ['93.184.216.34']],
      ['https://[2606:4700::1111]/hook', ['2606:4700::1111']],
      ['https://hooks.example.com:443/', ['93.184.216.34']],
      ['https://hooks.example.com:1024/', ['93.184.216.34']],
      ['https://hooks.example.com:8443/', ['93.184.216.34']],
      ['https://hooks.example.com:65535/', ['93.184.216.34']],
      ['https://hooks.example.com./', ['93.184.216.34']],
    ])('%s', async (url, addresses) => {
      // Prepare
      DNS['hooks.example.com.'] = ['93.184.216.34'];

      // Act
      const result = await check(url);

      // Assess
      expect(result).toMatchObject({ ok: true, addresses });
    });

    it('does not resolve an IP literal', async () => {
      // Prepare
      resolve.mockClear();

      // Act
      await check('https://93.184.216.34/');

      // Assess
      expect(resolve).not.toHaveBeenCalled();
    });
  });

  describe('refuses', () => {
    it.each([
      ['http://hooks.example.com/', /https/],
      ['http://93.184.216.34/', /https/],
      ['ftp://hooks.example.com/', /https/],
      ['file:///etc/passwd', /https/],
      ['gopher://hooks.example.com:70/', /https/],
      ['javascript:alert(1)', /https/],
      ['not a url', /valid absolute URL/],
      ['/relative/path', /valid absolute URL/],
    ])('%s (scheme)', async (url, reason) => {
      // Act
      const result = await check(url);

      // Assess
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(reason) });
    });

    it.each([
      'https://user:pass@hooks.example.com/',
      'https://user@hooks.example.com/',
      'https://:secret@hooks.example.com/',
    ])('%s (credentials in the URL)', async (url) => {
      // Act / Assess
      expect(await check(url)).toEqual({ ok: false, reason: 'url must not contain a user name or password' });
    });

    it.each([1, 22, 25, 53, 80, 110, 444, 1023])('port %i (below 1024 and not 443)', async (port) => {
      // Act / Assess
      expect(await check(`https://hooks.example.com:${port}/`)).toEqual({
        ok: false,
        reason: `port ${port} is not allowed (use 443 or 1024–65535)`,
      });
    });

    // The SSRF list: literals in every class, their disguised spellings, local names, and names
    // that a (fake) DNS resolves to forbidden addresses.
    it.each([
      // IPv4 literals
      ['https://127.0.0.1/', 'host 127.0.0.1 is a loopback address'],
      ['https://10.0.0.1/', 'host 10.0.0.1 is a private address'],
      ['https://172.16.0.1/', 'host 172.16.0.1 is a private address'],
      ['https://192.168.0.1/', 'host 192.168.0.1 is a private address'],
      ['https://169.254.169.254/latest/meta-data/', 'host 169.254.169.254 is a link-local address'],
      ['https://100.64.0.1/', 'host 100.64.0.1 is a carrier-grade NAT address'],
      ['https://224.0.0.1/', 'host 224.0.0.1 is a multicast address'],
      ['https://192.0.2.10/', 'host 192.0.2.10 is a documentation address'],
      ['https://198.51.100.10/', 'host 198.51.100.10 is a documentation address'],
      ['https://203.0.113.10/', 'host 203.0.113.10 is a documentation address'],
      ['https://198.18.0.1/', 'host 198.18.0.1 is a benchmarking address'],
      ['https://0.0.0.0/', 'host 0.0.0.0 is an unspecified address'],
      ['https://255.255.255.255/', 'host 255.255.255.255 is a broadcast address'],
      ['https://240.0.0.1/', 'host 240.0.0.1 is a reserved address'],
      // Other spellings of 127.0.0.1 that WHATWG URL parsing normalizes.
      ['https://2130706433/', 'host 127.0.0.1 is a loopback address'],
      ['https://0x7f.0.0.1/', 'host 127.0.0.1 is a loopback address'],
      ['https://0x7f000001/', 'host 127.0.0.1 is a loopback address'],
      ['https://0177.0.0.1/', 'host 127.0.0.1 is a loopback address'],
      ['https://127.1/', 'host 127.0.0.1 is a loopback address'],
      ['https://012.0.0.1/', 'host 10.0.0.1 is a private address'],
      ['https://0xa9fea9fe/', 'host 169.254.169.254 is a link-local address'],
      ['https://%31%32%37.0.0.1/', 'host 127.0.0.1 is a loopback address'],
      // IPv6 literals
      ['https://[::1]/', 'host ::1 is a loopback address'],
      ['https://[::]/', 'host :: is an unspecified address'],
      ['https://[fc00::1]/', 'host fc00::1 is a unique-local address'],
      ['https://[fd00:ec2::254]/', 'host fd00:ec2::254 is a unique-local address'],
      ['https://[fe80::1]/', 'host fe80::1 is a link-local address'],
      ['https://[ff02::1]/', 'host ff02::1 is a multicast address'],
      ['https://[2001:db8::1]/', 'host 2001:db8::1 is a documentation address'],
      ['https://[::ffff:10.0.0.1]/', 'host ::ffff:a00:1 is a private (IPv4-mapped) address'],
      ['https://[::ffff:7f00:1]/', 'host ::ffff:7f00:1 is a loopback (IPv4-mapped) address'],
      ['https://[::ffff:169.254.169.254]/', 'host ::ffff:a9fe:a9fe is a link-local (IPv4-mapped) address'],
      ['https://[64:ff9b::7f00:1]/', 'host 64:ff9b::7f00:1 is a loopback (NAT64) address'],
      ['https://[2002:a00:1::1]/', 'host 2002:a00:1::1 is a private (6to4) address'],
      // Names refused before any lookup
      ['https://localhost/', 'host localhost is a local or internal name'],
      ['https://LOCALHOST:8443/', 'host localhost is a local or internal name'],
      ['https://localhost./', 'host localhost. is a local or internal name'],
      ['https://api.localhost/', 'host api.localhost is a local or internal name'],
      [
        'https://metadata.google.internal/computeMetadata/v1/',
        'host metadata.google.internal is a local or internal name',
      ],
      ['https://ip-10-0-0-1.ec2.internal/', 'host ip-10-0-0-1.ec2.internal is a local or internal name'],
      ['https://printer.local/', 'host printer.local is a local or internal name'],
      ['https://nas.home.arpa/', 'host nas.home.arpa is a local or internal name'],
      ['https://metadata/', 'host metadata is not a fully qualified domain name'],
      ['https://intranet:8443/', 'host intranet is not a fully qualified domain name'],
      // Names that resolve to forbidden addresses
      [
        'https://rebind.attacker.test/',
        'host rebind.attacker.test resolves to 127.0.0.1, a loopback address',
      ],
      [
        'https://intranet.attacker.test/',
        'host intranet.attacker.test resolves to 10.0.0.5, a private address',
      ],
      [
        'https://router.attacker.test/',
        'host router.attacker.test resolves to 192.168.1.1, a private address',
      ],
      ['https://vpc.attacker.test/', 'host vpc.attacker.test resolves to 172.16.0.10, a private address'],
      [
        'https://metadata.attacker.test/',
        'host metadata.attacker.test resolves to 169.254.169.254, a link-local address',
      ],
      [
        'https://cgnat.attacker.test/',
        'host cgnat.attacker.test resolves to 100.64.0.1, a carrier-grade NAT address',
      ],
      [
        'https://v6loopback.attacker.test/',
        'host v6loopback.attacker.test resolves to ::1, a loopback address',
      ],
      ['https://ula.attacker.test/', 'host ula.attacker.test resolves to fd00::1, a unique-local address'],
      [
        'https://mapped.attacker.test/',
        'host mapped.attacker.test resolves to ::ffff:10.0.0.1, a private (IPv4-mapped) address',
      ],
      ['https://mixed.attacker.test/', 'host mixed.attacker.test resolves to 10.0.0.5, a private address'],
      [
        'https://mixed6.attacker.test/',
        'host mixed6.attacker.test resolves to fe80::1, a link-local address',
      ],
      // Names that do not resolve cannot receive anything.
      ['https://nowhere.example.com/', 'host nowhere.example.com does not resolve'],
    ])('%s', async (url, reason) => {
      // Act
      const result = await check(url);

      // Assess
      expect(result).toEqual({ ok: false, reason });
    });

    it('a host whose DNS answer is empty', async () => {
      // Act
      const result = await checkWebhookUrl('https://empty.example.com/', { resolve: async () => [] });

      // Assess
      expect(result).toEqual({ ok: false, reason: 'host empty.example.com does not resolve' });
    });
  });

  describe("with loopback targets (the local stack's default)", () => {
    it.each([
      ['http://127.0.0.1:4000/hooks', ['127.0.0.1']],
      ['http://127.1.2.3:80/hooks', ['127.1.2.3']],
      ['https://127.0.0.1:22/hooks', ['127.0.0.1']],
      ['http://[::1]:4000/hooks', ['::1']],
      ['http://[::ffff:127.0.0.1]:4000/hooks', ['::ffff:7f00:1']],
    ])('permits %s, over http and on any port', async (url, addresses) => {
      // Act / Assess
      expect(await check(url, 'loopback')).toMatchObject({ ok: true, addresses });
    });

    it('permits localhost and its subdomains when they resolve to this machine only', async () => {
      // Act
      const plain = await checkWebhookUrl('http://localhost:4000/hooks', {
        resolve: async () => ['127.0.0.1', '::1'],
        targets: 'loopback',
      });
      const sub = await checkWebhookUrl('http://hooks.localhost./x', {
        resolve: async () => ['127.0.0.1'],
        targets: 'loopback',
      });

      // Assess
      expect(plain).toMatchObject({ ok: true, addresses: ['127.0.0.1', '::1'] });
      expect(sub).toMatchObject({ ok: true });
    });

    it('refuses localhost when a resolver says it is elsewhere', async () => {
      // Act
      const result = await checkWebhookUrl('http://localhost:4000/hooks', {
        resolve: async () => ['127.0.0.1', '10.0.0.5'],
        targets: 'loopback',
      });

      // Assess
      expect(result).toEqual({
        ok: false,
        reason: 'host localhost resolves to 10.0.0.5, which is not this machine',
      });
    });

    it.each([
      ['https://10.0.0.1/', 'host 10.0.0.1 is a private address'],
      ['http://10.0.0.1:4000/', 'url must use https'],
      ['https://169.254.169.254/latest', 'host 169.254.169.254 is a link-local address'],
      ['https://[fd00::1]/', 'host fd00::1 is a unique-local address'],
      ['https://printer.local/', 'host printer.local is a local or internal name'],
      // A public name that points at this machine is judged as public: only `localhost` is trusted.
      [
        'https://rebind.attacker.test/',
        'host rebind.attacker.test resolves to 127.0.0.1, a loopback address',
      ],
      ['http://hooks.example.com:8080/', 'url must use https'],
    ])('still refuses %s as deployed stages do', async (url, reason) => {
      // Act / Assess
      expect(await check(url, 'loopback')).toEqual({ ok: false, reason });
    });

    it('keeps the public rule for public receivers', async () => {
      // Act / Assess
      expect(await check('https://hooks.example.com/fleet', 'loopback')).toMatchObject({ ok: true });
      expect(await check('https://hooks.example.com:22/', 'loopback')).toMatchObject({ ok: false });
    });
  });

  describe('with private targets (asked for on the local stack)', () => {
    it.each([
      ['http://127.0.0.1:4000/hooks', ['127.0.0.1']],
      ['http://[::1]:4000/hooks', ['::1']],
      ['https://10.0.0.1/', ['10.0.0.1']],
      ['http://rebind.attacker.test:80/', ['127.0.0.1']],
      ['http://intranet.attacker.test:22/', ['10.0.0.5']],
    ])('permits %s', async (url, addresses) => {
      // Act / Assess
      expect(await check(url, 'private')).toMatchObject({ ok: true, addresses });
    });

    it('permits localhost, resolving it', async () => {
      // Act
      const result = await checkWebhookUrl('http://localhost:4000/hooks', {
        resolve: async () => ['127.0.0.1', '::1'],
        targets: 'private',
      });

      // Assess
      expect(result).toMatchObject({ ok: true, addresses: ['127.0.0.1', '::1'] });
    });

    it('still refuses other schemes, credentials and names that do not resolve', async () => {
      // Act / Assess
      for (const targets of ['loopback', 'private'] as const) {
        expect(await check('ftp://127.0.0.1/', targets)).toMatchObject({ ok: false });
        expect(await check('http://user:pass@127.0.0.1:4000/', targets)).toMatchObject({ ok: false });
        expect(await check('http://nowhere.example.com/', targets)).toMatchObject({ ok: false });
      }
    });
  });
});

describe('createGuardedLookup (send-time re-check against DNS rebinding)', () => {
  /** A fake `dns.lookup` that always answers `records`, the way the callback API does with all: true. */
  const fakeLookup = (records: LookupAddress[]) =>
    ((_host: string, _options: unknown, callback: (error: null, addresses: LookupAddress[]) => void) =>
      callback(null, records)) as unknown as typeof realLookup;

  const lookupOnce = (
    guarded: ReturnType<typeof createGuardedLookup>,
    options: Parameters<ReturnType<typeof createGuardedLookup>>[1],
  ) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      guarded('hooks.example.com', options, (error, address, family) => resolve({ error, address, family })),
    );

  it('answers a public address in the shape asked for (one, or all)', async () => {
    // Prepare
    const guarded = createGuardedLookup({
      lookup: fakeLookup([
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ]),
    });

    // Act
    const one = await lookupOnce(guarded, {});
    const all = await lookupOnce(guarded, { all: true });

    // Assess
    expect(one).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect(all.error).toBeNull();
    expect(all.address).toHaveLength(2);
  });

  it('fails when the name now resolves to a forbidden address, even as a second record', async () => {
    // Prepare: at creation the name resolved to a public address; now DNS also says loopback.
    const guarded = createGuardedLookup({
      lookup: fakeLookup([
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]),
    });

    // Act
    const result = await lookupOnce(guarded, { all: true });

    // Assess
    expect(result.error?.code).toBe('ERR_WEBHOOK_FORBIDDEN_ADDRESS');
    expect(result.error?.message).toBe(
      'webhook host hooks.example.com resolved to 127.0.0.1, a loopback address',
    );
  });

  it('passes the legacy numeric family through to the real lookup', async () => {
    // Prepare
    const lookup = vi.fn(
      (_host: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
        callback(null, [{ address: '2606:4700::1111', family: 6 }]),
    );
    const guarded = createGuardedLookup({ lookup: lookup as unknown as typeof realLookup });

    // Act
    const result = await lookupOnce(guarded, 6);

    // Assess
    expect(lookup).toHaveBeenCalledWith('hooks.example.com', { family: 6, all: true }, expect.any(Function));
    expect(result).toEqual({ error: null, address: '2606:4700::1111', family: 6 });
  });

  it('lets loopback through with loopback or private targets', async () => {
    for (const targets of ['loopback', 'private'] as const) {
      // Prepare
      const guarded = createGuardedLookup({
        targets,
        lookup: fakeLookup([{ address: '127.0.0.1', family: 4 }]),
      });

      // Act / Assess
      expect(await lookupOnce(guarded, undefined)).toEqual({ error: null, address: '127.0.0.1', family: 4 });
    }
  });

  it('refuses other private addresses with loopback targets, and lets them through with private ones', async () => {
    // Prepare
    const records = fakeLookup([{ address: '10.0.0.5', family: 4 }]);
    const loopback = createGuardedLookup({ targets: 'loopback', lookup: records });
    const anyPrivate = createGuardedLookup({ targets: 'private', lookup: records });

    // Act
    const refused = await lookupOnce(loopback, {});
    const allowed = await lookupOnce(anyPrivate, {});

    // Assess
    expect(refused.error?.message).toBe(
      'webhook host hooks.example.com resolved to 10.0.0.5, a private address',
    );
    expect(allowed).toEqual({ error: null, address: '10.0.0.5', family: 4 });
  });

  it('refuses loopback on a real connection through node:http', async () => {
    // Prepare
    const http = await import('node:http');
    const server = http.createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };

    try {
      // Act
      const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
        const request = http.request(`http://localhost:${port}/`, { lookup: createGuardedLookup() }, () =>
          reject(new Error('connected to a loopback address')),
        );
        request.on('error', resolve);
        request.end();
      });

      // Assess
      expect(error.code).toBe('ERR_WEBHOOK_FORBIDDEN_ADDRESS');
    } finally {
      server.close();
    }
  });
});
