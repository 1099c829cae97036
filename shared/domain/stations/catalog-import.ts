import * as z from 'zod/mini';
import { globalIssueMessage } from '../../platform/http/issue-messages.ts';
import { isPublicId, stableId } from '../../platform/ids.ts';
import { STATE_PADD } from './price-model.ts';
import type { Station } from './station.ts';

/**
 * The import format of `npm run stations:import` (CSV with a header row, or a JSON array of
 * objects with the same names). Columns:
 *
 * | column | required | notes |
 * |---|---|---|
 * | id | no | `stn_` id; derived from chain + coordinates when absent, so re-imports keep ids |
 * | name, chain | yes | |
 * | latitude, longitude | yes | WGS84 degrees, lower 48 |
 * | address | no | |
 * | state | yes | two-letter code |
 * | amenities | no | `;`-separated, e.g. `showers;parking;scales` |
 * | fuels | no | `;`-separated; default `diesel` |
 * | diesel_price_usd_per_gallon | yes | posted price, 1.00–15.00 |
 * | price_updated_at | yes | RFC 3339 timestamp |
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

/** Validates rows one by one: a bad row is reported by line and the rest are kept. */
export function parseCatalogRows(rows: { line: number; values: Record<string, unknown> }[]): ParsedCatalog {
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
      fuels: r.fuels.length ? r.fuels : ['diesel'],
      dieselPriceUsdPerGallon: r.diesel_price_usd_per_gallon,
      priceUpdatedAtMs: Date.parse(r.price_updated_at),
    });
  }
  return { stations, rejected };
}

/** CSV (RFC 4180: quoted fields, doubled quotes, CRLF) → rows keyed by the header. */
export function csvRows(text: string): { line: number; values: Record<string, string> }[] {
  const records = parseCsv(text);
  const [header, ...body] = records;
  if (!header) return [];
  const names = header.fields.map((name) => name.trim().toLowerCase());
  return body
    .filter((record) => record.fields.some((field) => field.trim() !== ''))
    .map((record) => ({
      line: record.line,
      values: Object.fromEntries(names.map((name, i) => [name, record.fields[i] ?? ''])),
    }));
}

/** JSON array of objects → rows numbered by position. */
export function jsonRows(text: string): { line: number; values: Record<string, unknown> }[] {
  const data: unknown = JSON.parse(text);
  if (!Array.isArray(data)) throw new Error('A JSON catalog must be an array of station objects');
  return data.map((values, index) => ({
    line: index + 1,
    values: typeof values === 'object' && values !== null ? (values as Record<string, unknown>) : {},
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
