/**
 * The packed layout of stored breadcrumbs: a position ring or a history chunk as ONE binary
 * attribute instead of a list of number lists. Why: DynamoDB parses, validates and sizes every
 * number attribute through a decimal type (the largest single cost of a busy table after JSON, see
 * docs/scaling.md), and a list of lists marshals 6 attributes per breadcrumb; a few bytes each in
 * one `B` value cost neither, and shrink the items (fewer write units per chunk).
 *
 * Layout (version 1), all integers unsigned LEB128 varints:
 *
 *     version (byte, 1) · count · point × count
 *     point = changed (byte: bit i set when field i's mode differs from the previous point's)
 *             · one mode byte per changed field, in field order
 *             · each field's value, in field order, by its mode
 *
 * Fields: recorded ms, latitude, longitude, fuel %, km/h (a {@link HistoryTuple}). A field's mode:
 * - 0–9, a decimal scale d: the value is k / 10^d for an integer k; stored as the zigzag varint of
 *   k minus the previous point's k for this field (0 when the previous point had another mode), so
 *   a breadcrumb a minute after the last costs a byte or two per field;
 * - 10: a float64, little-endian (any number no scale holds exactly);
 * - 11: null (absent fuel or speed).
 * Before the first point every field is "scale 0, k 0". The encoder keeps a field's mode while it
 * holds the value exactly (fuel 62.5 then 62: scale 1 twice), so most points change no mode and
 * carry one header byte. Every value decodes to the very number that was encoded (checked when
 * choosing the mode, -0 included); times are whole ms (scale 0) as ingest stores them.
 */

/** A breadcrumb as history keeps it: `[recorded ms, lat, lon, fuel %, km/h]`. */
export type HistoryTuple = (number | null)[];

export const PACKING_VERSION = 1;
const FIELDS = 5;
const MAX_SCALE = 9;
const FLOAT64 = 10;
const NULL = 11;
/** |k| stays within this, so a delta's zigzag (≤ 2^52) is a safe integer. */
const MAX_SCALED = 2 ** 50;
const POWERS = Array.from({ length: MAX_SCALE + 1 }, (_, d) => 10 ** d);
/** The most one point can take: header, five mode bytes, five values of at most 8 bytes. */
const MAX_POINT_BYTES = 1 + FIELDS + FIELDS * 8;

/** k when `value` is exactly k / 10^scale, else null. */
function scaledOf(value: number, scale: number): number | null {
  const power = POWERS[scale] as number;
  const k = Math.round(value * power);
  if (Math.abs(k) > MAX_SCALED || k / power !== value || Object.is(value, -0)) return null;
  return k;
}

function modeOf(value: number | null, previousMode: number): number {
  if (value === null) return NULL;
  if (previousMode <= MAX_SCALE && scaledOf(value, previousMode) !== null) return previousMode;
  for (let scale = 0; scale <= MAX_SCALE; scale++) if (scaledOf(value, scale) !== null) return scale;
  return FLOAT64;
}

class Writer {
  readonly bytes: Buffer;
  at = 0;
  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }
  byte(value: number) {
    this.bytes[this.at++] = value;
  }
  /** Non-negative integers up to 2^53 (arithmetic, not 32-bit bitwise operators). */
  varint(value: number) {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) + 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }
  float64(value: number) {
    this.at = this.bytes.writeDoubleLE(value, this.at);
  }
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

/** The tuples in the packed layout (the ring or a chunk, in their order). */
export function packTuples(tuples: readonly HistoryTuple[]): Uint8Array {
  const out = new Writer(1 + 8 + tuples.length * MAX_POINT_BYTES);
  out.byte(PACKING_VERSION);
  out.varint(tuples.length);
  const modes = new Array<number>(FIELDS).fill(0);
  const previous = new Array<number>(FIELDS).fill(0);
  const next = new Array<number>(FIELDS);
  for (const tuple of tuples) {
    if (tuple.length !== FIELDS)
      throw new Error(`a breadcrumb tuple has ${FIELDS} fields, not ${tuple.length}`);
    let changed = 0;
    for (let field = 0; field < FIELDS; field++) {
      const mode = modeOf(tuple[field] ?? null, modes[field] as number);
      next[field] = mode;
      if (mode !== modes[field]) changed |= 1 << field;
    }
    out.byte(changed);
    for (let field = 0; field < FIELDS; field++) {
      if (changed & (1 << field)) {
        out.byte(next[field] as number);
        // A new mode starts from k = 0: the value is written whole.
        previous[field] = 0;
        modes[field] = next[field] as number;
      }
    }
    for (let field = 0; field < FIELDS; field++) {
      const mode = modes[field] as number;
      const value = tuple[field] as number;
      if (mode === NULL) continue;
      if (mode === FLOAT64) {
        out.float64(value);
        continue;
      }
      const k = scaledOf(value, mode) as number;
      out.varint(zigzag(k - (previous[field] as number)));
      previous[field] = k;
    }
  }
  return out.bytes.subarray(0, out.at);
}

/** The tuples a packed value holds. Throws on a value this layout did not write (a corrupt item). */
export function unpackTuples(bytes: Uint8Array): HistoryTuple[] {
  let at = 0;
  const byte = () => {
    if (at >= bytes.length) throw new Error('packed breadcrumbs: truncated');
    return bytes[at++] as number;
  };
  const varint = () => {
    let value = 0;
    let weight = 1;
    for (;;) {
      const b = byte();
      value += (b & 0x7f) * weight;
      if (b < 0x80) return value;
      weight *= 0x80;
      if (weight > 2 ** 56) throw new Error('packed breadcrumbs: varint too long');
    }
  };
  const version = byte();
  if (version !== PACKING_VERSION) throw new Error(`packed breadcrumbs: unknown version ${version}`);
  const count = varint();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const modes = new Array<number>(FIELDS).fill(0);
  const previous = new Array<number>(FIELDS).fill(0);
  const tuples: HistoryTuple[] = [];
  for (let point = 0; point < count; point++) {
    const changed = byte();
    if (changed >> FIELDS) throw new Error('packed breadcrumbs: bad point header');
    for (let field = 0; field < FIELDS; field++) {
      if (!(changed & (1 << field))) continue;
      const mode = byte();
      if (mode > NULL) throw new Error(`packed breadcrumbs: unknown mode ${mode}`);
      modes[field] = mode;
      previous[field] = 0;
    }
    const tuple: HistoryTuple = new Array(FIELDS);
    for (let field = 0; field < FIELDS; field++) {
      const mode = modes[field] as number;
      if (mode === NULL) {
        tuple[field] = null;
      } else if (mode === FLOAT64) {
        if (at + 8 > bytes.length) throw new Error('packed breadcrumbs: truncated');
        tuple[field] = view.getFloat64(at, true);
        at += 8;
      } else {
        const k = (previous[field] as number) + unzigzag(varint());
        previous[field] = k;
        tuple[field] = k / (POWERS[mode] as number);
      }
    }
    tuples.push(tuple);
  }
  if (at !== bytes.length) throw new Error('packed breadcrumbs: trailing bytes');
  return tuples;
}

/**
 * The tuples of a stored ring or chunk in either layout: packed (binary, what the store writes) or
 * the list of `[ms, lat, lon, fuel, km/h]` number lists (the list layout). Absent: none.
 */
export function tuplesOf(stored: unknown): HistoryTuple[] {
  if (stored === undefined || stored === null) return [];
  if (stored instanceof Uint8Array) return unpackTuples(stored);
  if (Array.isArray(stored)) {
    // Only tuples: code that reads a packed ring as a list could write back its bytes as bare
    // numbers beside its own tuples (docs/operations.md).
    return stored.flatMap((tuple) =>
      Array.isArray(tuple) ? [tuple.map((value) => (value === null ? null : Number(value)))] : [],
    );
  }
  throw new Error('stored breadcrumbs are neither packed nor a list');
}
