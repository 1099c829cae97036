import { NO_FUEL_PROGRAM } from '../domain/fuel-program/program.ts';
import { createFlaggedPurchaseReader } from '../store/flagged-purchases.ts';
import { createFuelDiscountStore } from '../store/fuel-discounts.ts';
import { createSimulationStore } from '../store/sandbox-simulations.ts';
import { createSavingsDayStore } from '../store/savings-days.ts';
import type { SavingsReportDeps } from '../usecases/savings-report.ts';
import { perInfrastructure } from './infrastructure.ts';
import { vehicleReader } from './table-stores.ts';

/**
 * GET /v1/reports/savings: the vehicle-day rows, the vehicles (for ext: and external_ref), the
 * flagged purchases, the fleet's fuel program (read without the station sources, which bundle the
 * highway graph), the sandbox clock.
 */
export const savingsReportDeps = /* @__PURE__ */ perInfrastructure(
  (infra): SavingsReportDeps => ({
    vehicles: vehicleReader(infra),
    savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
    flagged: createFlaggedPurchaseReader(infra.client, infra.config.tableName),
    fuelPrograms: {
      // The stored discounts stand for the program until the fleet item holds it (rule `none`).
      get: async (fleetId) => {
        const discounts = await createFuelDiscountStore(infra.client, infra.config.tableName).get(fleetId);
        const chains = Object.entries(discounts).map(([chain, discountCents]) => ({ chain, discountCents }));
        return { ...NO_FUEL_PROGRAM, chains };
      },
    },
    now: infra.clock.now,
    // A sandbox twin's report follows its simulation's clock (its test clock runs ahead).
    simulations:
      infra.config.stage === 'sandbox'
        ? createSimulationStore(infra.client, infra.config.tableName)
        : undefined,
  }),
);
