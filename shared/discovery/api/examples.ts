import type { accountOperations } from '#shared/accounts/api/operations.ts';
import { errorRegistryResource } from '#shared/api/error-serializers.ts';
import { type ExamplesFor, rejected } from '#shared/api/example.ts';
import { IDS } from '#shared/api/example-fixtures.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { discoveryOperations } from './operations.ts';

/** The first entries of the real registry (the full list is GET /v1/errors and `x-error-registry`). */
const registry = errorRegistryResource();

export const discoveryExamples = {
  getOpenApi: {
    responses: {
      200: {
        openapi: '3.1.0',
        info: { title: 'Fleet Fuel Guidance API', version: 'v1' },
        servers: [{ url: 'https://api.fleetfuel.example.com', description: 'prod stage' }],
        paths: { '/v1/vehicles': { get: { operationId: 'listVehicles' } } },
      },
    },
    // The documents take no query parameters: anything sent is refused, never ignored.
    problem: rejected('query', undefined, { format: 'yaml' }),
  },
  listErrors: {
    responses: { 200: { data: registry.data.slice(0, 3) } },
    problem: rejected('query', undefined, { lang: 'fr' }),
  },
} satisfies ExamplesFor<typeof discoveryOperations>;

export const accountExamples = {
  getMe: {
    responses: {
      200: {
        key: { id: IDS.partnerKey, name: 'TMS production', owner_type: 'partner', mode: 'live' },
        account: { id: IDS.partner, type: 'partner', name: 'Red River TMS' },
        partner: { id: IDS.partner, name: 'Red River TMS' },
        fleet_id: null,
        scopes: [
          'fleets:manage',
          'vehicles:manage',
          'locations:write',
          'guidance:read',
          'guidance:manage',
          'webhooks:manage',
        ],
        plan: {
          name: 'growth',
          rate_limit_per_min: 600,
          monthly_quota: {
            guidance: 500000,
            locations: 500000,
            routes: 50000,
            stations: 200000,
            trips: 100000,
          },
          used_this_month: { guidance: 18240, locations: 61877, routes: 412, stations: 2290, trips: 0 },
          price_query_cap: 25,
          station_query_budget: 2000000,
          station_results_this_month: 23114,
          station_results_overage: 0,
          period: { start: '2026-11-01T00:00:00.000000Z', end: '2026-12-01T00:00:00.000000Z' },
        },
      },
    },
    problem: new ApiError('invalid_api_key', 'The API key is not valid.'),
  },
} satisfies ExamplesFor<typeof accountOperations>;
