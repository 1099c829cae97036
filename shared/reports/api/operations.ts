import { routeGroup } from '#shared/api/route-group.ts';
import { savingsReportQuery, savingsReportSchema } from '#shared/fuelings/api/schemas.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';

const reportOperation = routeGroup({
  tags: ['Reports'],
  handlers: 'functions/http/reports',
  access: 'fleet',
  scope: 'usage:read',
  family: 'reports',
  role: 'api',
  idempotent: false,
});

export const getSavingsReportOperation = /* @__PURE__ */ reportOperation({
  operationId: 'getSavingsReport',
  route: 'GET /v1/reports/savings',
  summary: 'Fuel savings and adherence, fleet totals and per vehicle',
  description:
    '`from`/`to` take a date or a date-time and cover whole UTC days (default: the 30 days ending today; at most 366; `to` before `from` is 422). ' +
    'Totals are the sum of the vehicle rows; `adherence_rate` is null when no recommended stop was due. ' +
    '`savings_usd` is the saving of where the fleet bought against the counterfactual with its card (the same measure as a route’s `savings.usd`); `card_savings_usd`, what the card is worth on those corridors, is shown beside it, not in it. ' +
    'Every figure is defined in `definitions`; `methodology` links the published methodology.',
  request: { query: savingsReportQuery },
  responses: [{ status: 200, description: 'The savings report', schema: savingsReportSchema }],
  errors: ['resource_not_found'],
});

export const reportOperations = {
  getSavingsReport: getSavingsReportOperation,
} satisfies Record<string, RouteDefinition>;
