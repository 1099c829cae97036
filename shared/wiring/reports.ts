import { createFlaggedPurchaseReader } from '../store/flagged-purchases.ts';
import { createSimulationStore } from '../store/sandbox-simulations.ts';
import { createSavingsDayStore } from '../store/savings-days.ts';
import type { SavingsReportDeps } from '../usecases/savings-report.ts';
import { fuelProgramReader } from './fuel-program-reader.ts';
import { perInfrastructure } from './infrastructure.ts';
import { vehicleReader } from './table-stores.ts';

/**
 * GET /v1/reports/savings: the vehicle-day rows, the vehicles (for ext: and external_ref), the
 * flagged purchases, the fleet's fuel program, the sandbox clock.
 */
export const savingsReportDeps = /* @__PURE__ */ perInfrastructure(
  (infra): SavingsReportDeps => ({
    vehicles: vehicleReader(infra),
    savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
    flagged: createFlaggedPurchaseReader(infra.client, infra.config.tableName),
    fuelPrograms: fuelProgramReader(infra),
    now: infra.clock.now,
    // A sandbox twin's report follows its simulation's clock (its test clock runs ahead).
    simulations:
      infra.config.stage === 'sandbox'
        ? createSimulationStore(infra.client, infra.config.tableName)
        : undefined,
  }),
);
