import { type OperationExamples, rejected } from '#shared/api/example.ts';
import { NOW } from '#shared/api/example-fixtures.ts';
import type { adminOperations } from './operations.ts';
import { putFuelTaxRateBody } from './schemas.ts';

// The operator API's examples (admin-openapi.json), for the operations that have them.

const OPERATOR = 'arn:aws:sts::123456789012:assumed-role/OperatorRole/alice';

const shipped = (state: string, usdPerGallon: number) => ({
  object: 'fuel_tax_rate',
  state,
  usd_per_gallon: usdPerGallon,
  effective_from: '2025-Q4',
  source: 'shipped',
  updated_at: null,
  updated_by: null,
});

/** Pennsylvania's rate for next year, stored ahead of its quarter. */
const scheduled = {
  object: 'fuel_tax_rate',
  state: 'PA',
  usd_per_gallon: 0.785,
  effective_from: '2027-Q1',
  source: 'operator',
  updated_at: NOW,
  updated_by: OPERATOR,
};

/** Production the evening after its morning file: imported, fresh, ready. */
const readyProduction = {
  object: 'readiness',
  stage: 'prod',
  ready: true,
  problems: [],
  routing: { engine: 'amazon-location', fallback: 'embedded' },
  station_catalog: {
    source: 'imported',
    version: 'import-20261121T060512004-3fa91c',
    station_count: 6214,
    imported_at: '2026-11-21T06:05:12.004000Z',
    newest_price_updated_at: '2026-11-21T05:45:00.000000Z',
    newest_price_age_hours: 16.7,
    stale: false,
    stale_after_hours: 36,
  },
  last_price_import: {
    source: 's3://fleetfuel-prod-pricefeedbucket-1x2y3z/incoming/2026-11-21.csv',
    outcome: 'published',
    version: 'import-20261121T060512004-3fa91c',
    at: '2026-11-21T06:05:12.004000Z',
    accepted_rows: 6214,
    rejected_rows: 3,
    reasons: [],
  },
  last_dry_run: {
    source: 's3://fleetfuel-prod-pricefeedbucket-1x2y3z/dry-run/2026-11-22-new-columns.csv',
    outcome: 'refused',
    version: 'import-20261121T201540318-b07e22',
    at: '2026-11-21T20:15:40.318000Z',
    accepted_rows: 0,
    rejected_rows: 0,
    reasons: [
      'The CSV header lacks the columns diesel_price_usd_per_gallon; the first line must name the columns (docs/price-feed.md).',
    ],
  },
  price_feed_bucket: 'fleetfuel-prod-pricefeedbucket-1x2y3z',
};

export const adminOperationExamples: Partial<Record<keyof typeof adminOperations, OperationExamples>> = {
  listFuelTaxRates: {
    responses: {
      200: {
        object: 'fuel_tax_rates',
        as_of: NOW,
        quarter: '2026-Q4',
        // Two of the 49 jurisdictions shown; the answer lists them all, by code.
        in_force: [shipped('OH', 0.47), shipped('PA', 0.741)],
        upcoming: [scheduled],
      },
    },
  },
  getReadiness: { responses: { 200: readyProduction } },
  putFuelTaxRate: {
    request: { params: { state: 'PA' }, body: { usd_per_gallon: 0.785, effective_from: '2027-Q1' } },
    responses: { 200: scheduled },
    problem: rejected('body', putFuelTaxRateBody, { usd_per_gallon: 78.5, effective_from: '2027-Q1' }),
  },
};
