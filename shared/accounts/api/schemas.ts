import * as z from 'zod/mini';
import { SCOPES } from '#shared/kernel/access.ts';

const perFamily = z.record(z.string(), z.number().check(z.int()));

export const meSchema = z
  .object({
    key: z.object({
      id: z.string(),
      name: z.string(),
      owner_type: z.enum(['partner', 'company']),
      mode: z.enum(['live', 'test']),
    }),
    account: z
      .object({ id: z.string(), type: z.enum(['partner', 'company']), name: z.string() })
      .check(
        z.meta({ description: 'The account the key belongs to: its partner (`ptr_`) or company (`cmp_`)' }),
      ),
    partner: z
      .nullable(z.object({ id: z.string(), name: z.string() }))
      .check(z.meta({ description: 'null for a company key' })),
    fleet_id: z
      .nullable(z.string())
      .check(z.meta({ description: "A company key's own fleet; null for a partner key" })),
    scopes: z.array(z.enum(SCOPES)),
    plan: z.object({
      name: z.string(),
      rate_limit_per_min: z.number().check(z.int()),
      monthly_quota: perFamily.check(
        z.meta({ description: 'Requests per calendar month (UTC) by endpoint family' }),
      ),
      used_this_month: perFamily.check(
        z.meta({
          description: 'Requests counted so far this month by endpoint family',
        }),
      ),
      price_query_cap: z
        .number()
        .check(z.int(), z.meta({ description: 'Most stations one GET /v1/stations may return' })),
      station_query_budget: z
        .number()
        .check(z.int(), z.meta({ description: 'Stations returned per calendar month' })),
      station_results_this_month: z
        .number()
        .check(
          z.int(),
          z.meta({ description: 'Stations returned so far this month, within the station-query budget' }),
        ),
      station_results_overage: z.number().check(
        z.int(),
        z.meta({
          description:
            'Stations returned this month by live guidance after the budget was spent (guidance is never refused; other station queries are)',
        }),
      ),
      period: z.object({ start: z.string(), end: z.string() }),
    }),
  })
  .check(z.meta({ id: 'Me' }));
