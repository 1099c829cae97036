import type { Plan } from './plans.ts';

/**
 * The plans an operator starts with (written to the table by the seed and by `npm run admin`);
 * after that the table is the truth and plans change without a deploy. Figures are our launch
 * pricing assumptions: a 500-truck fleet reporting every 2 minutes sends ~11M breadcrumbs a month
 * in ~22k batched calls, so `locations` quotas count calls, not breadcrumbs.
 */
export const PLAN_CATALOG: readonly Plan[] = [
  {
    name: 'starter',
    rateLimitPerMin: 120,
    monthlyQuota: { locations: 50_000, stations: 20_000, routes: 5_000, guidance: 50_000, trips: 10_000 },
    stationQueryBudget: 200_000,
    priceQueryCap: 10,
    enumerationGuard: { latticeMinCells: 30, maxDistinctCells: 120 },
  },
  {
    name: 'growth',
    rateLimitPerMin: 600,
    monthlyQuota: {
      locations: 500_000,
      stations: 200_000,
      routes: 50_000,
      guidance: 500_000,
      trips: 100_000,
    },
    stationQueryBudget: 2_000_000,
    priceQueryCap: 25,
    enumerationGuard: { latticeMinCells: 40, maxDistinctCells: 160 },
  },
  {
    name: 'enterprise',
    rateLimitPerMin: 3_000,
    monthlyQuota: {
      locations: 5_000_000,
      stations: 2_000_000,
      routes: 500_000,
      guidance: 5_000_000,
      trips: 1_000_000,
    },
    stationQueryBudget: 20_000_000,
    priceQueryCap: 25,
    enumerationGuard: { latticeMinCells: 60, maxDistinctCells: 300, coolDownMinutes: 30 },
  },
  {
    // A new company's keys until the operator approves production access with a plan: enough to
    // build and test a whole integration against the sandbox twin, not to run a fleet.
    name: 'sandbox',
    rateLimitPerMin: 120,
    monthlyQuota: { locations: 20_000, stations: 5_000, routes: 2_000, guidance: 20_000, trips: 2_000 },
    stationQueryBudget: 50_000,
    priceQueryCap: 25,
    enumerationGuard: { latticeMinCells: 30, maxDistinctCells: 120 },
  },
  {
    // The local stack and sandbox test suites: generous enough that no suite trips a limit by accident.
    name: 'local-dev',
    rateLimitPerMin: 100_000,
    monthlyQuota: {
      locations: 10_000_000,
      stations: 10_000_000,
      routes: 1_000_000,
      guidance: 10_000_000,
      trips: 1_000_000,
    },
    stationQueryBudget: 100_000_000,
    priceQueryCap: 25,
    enumerationGuard: { latticeMinCells: 80, maxDistinctCells: 400, coolDownMinutes: 15 },
  },
];
