import * as z from 'zod/mini';
import { stateContainsNear, stateName } from '#shared/geo/us-states.ts';
import { isPublicId, stableId } from '#shared/kernel/ids.ts';
import { globalIssueMessage } from '#shared/platform/validation/issue-messages.ts';
import { STATE_PADD } from './price-model.ts';
import type { Station } from './station.ts';

/**
 * The price feed's format (docs/price-feed.md): CSV with a header row, or a JSON array of objects
 * with the same names. Columns:
 *
 * | column | required | notes |
 * |---|---|---|
 * | id | no | `stn_` id; derived from chain + coordinates when absent, so re-imports keep ids |
 * | name, chain | yes | |
 * | latitude, longitude | yes | WGS84 degrees, lower 48 |
 * | address | no | |
 * | state | yes | two-letter code of the state the coordinates lie in |
 * | amenities | no | `;`-separated, e.g. `showers;parking;scales` |
 * | fuels | no | `;`-separated from {@link FUEL_TYPES}, must include `diesel`; default `diesel` |
 * | diesel_price_usd_per_gallon | yes | posted price, 1.00–15.00 |
 * | price_updated_at | yes | RFC 3339 timestamp, not after the import |
 */
export const IMPORT_COLUMNS = [
  'id',
  'name',
  'chain',
  'latitude',
  'longitude',
  'address',
  'state',
  'amenities',
  'fuels',
  'diesel_price_usd_per_gallon',
  'price_updated_at',
] as const;

/** The fuels a station may list: a typo or a new product is a rejected row, not a new fuel. */
export const FUEL_TYPES = [
  'diesel',
  'def',
  'biodiesel',
  'renewable_diesel',
  'dyed_diesel',
  'gasoline',
  'cng',
  'lng',
] as const;

/**
 * How far from its stated state a station may plot: the shipped 1:10M state outlines place a
 * border a few hundred metres off, and truck stops cluster at state lines.
 */
export const STATE_BORDER_TOLERANCE_MILES = 1;

/** Required columns: a file whose header lacks one is refused whole rather than row by row. */
export const REQUIRED_COLUMNS = [
  'name',
  'chain',
  'latitude',
  'longitude',
  'state',
  'diesel_price_usd_per_gallon',
  'price_updated_at',
] as const;

const list = z.pipe(
  z.optional(z.string()),
  z.transform((value) =>
    (value ?? '')
      .split(';')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
);

const row = z.object({
  id: z
    .optional(z.string())
    .check(z.refine((value) => !value || isPublicId('station', value), 'must be a stn_ id')),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  chain: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  latitude: z.coerce.number().check(z.minimum(24), z.maximum(50)),
  longitude: z.coerce.number().check(z.minimum(-125), z.maximum(-66)),
  address: z.optional(z.string().check(z.trim(), z.maxLength(300))),
  state: z.string().check(
    z.trim(),
    z.toUpperCase(),
    z.refine((state) => state in STATE_PADD, 'must be a lower-48 state code'),
  ),
  amenities: list,
  fuels: list,
  diesel_price_usd_per_gallon: z.coerce.number().check(z.minimum(1), z.maximum(15)),
  price_updated_at: z.iso.datetime({ offset: true }),
});

export interface RejectedRow {
  /** 1-based line in the file (CSV: the header is line 1); JSON: 1-based position in the array. */
  line: number;
  reason: string;
}

export interface ParsedCatalog {
  stations: Station[];
  rejected: RejectedRow[];
}

/**
 * Validates rows one by one: a bad row is reported by line and the rest are kept. `nowMs` is the
 * import's time: a price observed after it is a feed with a broken clock, not a price.
 */
export function parseCatalogRows(
  rows: { line: number; values: Record<string, unknown> }[],
  options: { nowMs: number },
): ParsedCatalog {
  const stations: Station[] = [];
  const rejected: RejectedRow[] = [];
  const seen = new Set<string>();
  for (const { line, values } of rows) {
    // zod/mini loads no locale: the import names each reason in our words, as the API does.
    const parsed = row.safeParse(values, { error: globalIssueMessage });
    if (!parsed.success) {
      rejected.push({
        line,
        reason: parsed.error.issues
          .map((issue) => `${issue.path.join('.') || 'row'}: ${issue.message}`)
          .join('; '),
      });
      continue;
    }
    const r = parsed.data;
    const fuels = r.fuels.length ? [...new Set(r.fuels.map((fuel) => fuel.toLowerCase()))] : ['diesel'];
    const priceUpdatedAtMs = Date.parse(r.price_updated_at);
    const problems = [
      ...fuelProblems(fuels),
      ...(priceUpdatedAtMs > options.nowMs
        ? [
            `price_updated_at: ${r.price_updated_at} is after the import's time: a price cannot be observed in the future`,
          ]
        : []),
      ...(stateContainsNear(r.state, r.latitude, r.longitude, STATE_BORDER_TOLERANCE_MILES)
        ? []
        : [
            `state: ${r.latitude}, ${r.longitude} is not in ${stateName(r.state)} (${r.state}) nor within ${STATE_BORDER_TOLERANCE_MILES} mile of it`,
          ]),
    ];
    if (problems.length) {
      rejected.push({ line, reason: problems.join('; ') });
      continue;
    }
    const id = r.id || stableId('station', `${r.chain}|${r.latitude.toFixed(5)}|${r.longitude.toFixed(5)}`);
    if (seen.has(id)) {
      rejected.push({ line, reason: `duplicate station ${id}` });
      continue;
    }
    seen.add(id);
    stations.push({
      id,
      name: r.name,
      chain: r.chain,
      latitude: r.latitude,
      longitude: r.longitude,
      address: r.address ?? '',
      state: r.state,
      amenities: r.amenities,
      fuels,
      dieselPriceUsdPerGallon: r.diesel_price_usd_per_gallon,
      priceUpdatedAtMs,
    });
  }
  return { stations, rejected };
}

function fuelProblems(fuels: string[]): string[] {
  const known = new Set<string>(FUEL_TYPES);
  const unknown = fuels.filter((fuel) => !known.has(fuel));
  if (unknown.length) {
    return [
      `fuels: unknown fuel ${unknown.map((f) => `'${f}'`).join(', ')} (expected one of ${FUEL_TYPES.join(', ')})`,
    ];
  }
  // The catalog is of diesel truck stops: a station without diesel has no price to plan with.
  return fuels.includes('diesel') ? [] : ['fuels: must include diesel'];
}

/** The required columns a CSV header lacks (names compared in lower case). */
export function missingColumns(header: readonly string[]): string[] {
  const present = new Set(header.map((name) => name.trim().toLowerCase()));
  return REQUIRED_COLUMNS.filter((column) => !present.has(column));
}

export type PriceFileFormat = 'csv' | 'json';

export type PriceFileRows =
  | { ok: true; rows: { line: number; values: Record<string, unknown> }[] }
  | { ok: false; reason: string };

/**
 * A price file's rows, or why the file as a whole is unusable (not JSON, not an array, a CSV
 * header without the required columns): those refuse the file rather than reject every row.
 */
export function priceFileRows(text: string, format: PriceFileFormat): PriceFileRows {
  // Spreadsheet exports often start with a byte order mark; it is not part of the first column's name.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (format === 'json') {
    try {
      return { ok: true, rows: jsonRows(body) };
    } catch (error) {
      return {
        ok: false,
        reason:
          error instanceof SyntaxError
            ? `The file is not valid JSON (${error.message}); a JSON price file is an array of station objects.`
            : (error as Error).message,
      };
    }
  }
  const { header, rows } = csvTable(body);
  if (header.length === 0) return { ok: true, rows: [] };
  const missing = missingColumns(header);
  if (missing.length) {
    return {
      ok: false,
      reason: `The CSV header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; the first line must name the columns (docs/price-feed.md).`,
    };
  }
  return { ok: true, rows };
}

/** CSV (RFC 4180: quoted fields, doubled quotes, CRLF) → rows keyed by the header. */
export function csvRows(text: string): { line: number; values: Record<string, string> }[] {
  return csvTable(text).rows;
}

function csvTable(text: string): {
  header: string[];
  rows: { line: number; values: Record<string, string> }[];
} {
  const records = parseCsv(text);
  const [header, ...body] = records;
  if (!header) return { header: [], rows: [] };
  const names = header.fields.map((name) => name.trim().toLowerCase());
  return {
    header: names,
    rows: body
      .filter((record) => record.fields.some((field) => field.trim() !== ''))
      .map((record) => ({
        line: record.line,
        values: Object.fromEntries(names.map((name, i) => [name, record.fields[i] ?? ''])),
      })),
  };
}

/** JSON array of objects → rows numbered by position; `amenities` and `fuels` may be arrays there. */
export function jsonRows(text: string): { line: number; values: Record<string, unknown> }[] {
  const data: unknown = JSON.parse(text);
  if (!Array.isArray(data)) throw new Error('A JSON price file must be an array of station objects');
  return data.map((values, index) => ({
    line: index + 1,
    values:
      typeof values === 'object' && values !== null && !Array.isArray(values)
        ? Object.fromEntries(
            Object.entries(values as Record<string, unknown>).map(([name, value]) => [
              name,
              (name === 'amenities' || name === 'fuels') && Array.isArray(value) ? value.join(';') : value,
            ]),
          )
        : {},
  }));
}

function parseCsv(text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n') line++;
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push({ line: recordLine, fields });
      fields = [];
      field = '';
      line++;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    records.push({ line: recordLine, fields });
  }
  return records;
}
