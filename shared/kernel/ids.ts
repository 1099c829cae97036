import { createHash, randomBytes } from 'node:crypto';

/** Public id prefixes (docs/api-guide.md#conventions), plus internal ones (keys, partners) that never leave the API. */
export const ID_PREFIXES = {
  fleet: 'flt',
  vehicle: 'veh',
  route: 'rte',
  trip: 'trip',
  tripStop: 'tsp',
  guidance: 'gd',
  guidanceStop: 'gds',
  fueling: 'fuel',
  webhookEndpoint: 'whk',
  webhookDelivery: 'whd',
  event: 'evt',
  station: 'stn',
  request: 'req',
  partner: 'ptr',
  company: 'cmp',
  apiKey: 'key',
  productionAccess: 'par',
  auditEntry: 'aud',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

// Crockford base32: no I, L, O, U, so ids survive being read aloud or copied by hand.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

let lastTimeMs = -1;
let lastRandom: number[] = [];

/**
 * A ULID: 48 bits of milliseconds then 80 random bits, so ids sort by creation time and
 * DynamoDB range keys built from them list oldest-first for free. Monotonic within a process: a
 * second id in the same millisecond increments the random part, so lists keep creation order
 * even for records a batch writes in one millisecond.
 */
export function ulid(nowMs: number = Date.now()): string {
  let random: number[];
  if (nowMs === lastTimeMs) {
    random = [...lastRandom];
    for (let i = random.length - 1; i >= 0; i--) {
      random[i] = ((random[i] as number) + 1) % 32;
      if (random[i] !== 0) break;
    }
  } else {
    random = Array.from(randomBytes(16), (byte) => byte % 32);
    // Leave headroom so increments within one millisecond never wrap the most significant digit.
    random[0] = (random[0] as number) % 16;
  }
  lastTimeMs = nowMs;
  lastRandom = random;

  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + random.map((digit) => CROCKFORD[digit]).join('');
}

export function newId(kind: IdKind, nowMs?: number): string {
  return `${ID_PREFIXES[kind]}_${ulid(nowMs)}`;
}

const patterns = new Map<string, RegExp>();

/** True when `value` is a well-formed id of the given kind (right prefix, 26 Crockford characters). */
export function isPublicId(kind: IdKind, value: string): boolean {
  const prefix = ID_PREFIXES[kind];
  let pattern = patterns.get(prefix);
  if (!pattern) {
    pattern = new RegExp(`^${prefix}_${ULID_PATTERN}$`);
    patterns.set(prefix, pattern);
  }
  return pattern.test(value);
}

/**
 * A deterministic id from a seed (catalog rows without an id, the synthetic catalog): the same
 * station keeps the same id across imports and rebuilds.
 */
export function stableId(kind: IdKind, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let body = '';
  for (let i = 0; i < 26; i++) body += CROCKFORD[(digest[i] as number) % 32];
  return `${ID_PREFIXES[kind]}_${body}`;
}

/**
 * A deterministic id that still sorts by time: the ULID's time part from `timeMs`, its random part
 * from the seed. A worker that runs twice on the same input (a detected fueling) names the record
 * the same both times, so the second write is a no-op.
 */
export function stableTimedId(kind: IdKind, timeMs: number, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[(digest[i] as number) % 32];
  return `${ID_PREFIXES[kind]}_${ulidTimePrefix(timeMs)}${random}`;
}

/** The 10-character time part a ULID of that millisecond starts with: a key-range bound for ids by time. */
export function ulidTimePrefix(timeMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(timeMs));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

/** The millisecond a ULID-based id (`newId`, `stableTimedId`) was minted at: its time part decoded. */
export function idTimeMs(id: string): number {
  const time = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  let ms = 0;
  for (const character of time) ms = ms * 32 + CROCKFORD.indexOf(character);
  return ms;
}

export function publicIdExample(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_01JD7ZK3M4N5P6Q7R8S9T0V1W2`;
}
