import { fuelProgramReader } from '#shared/fuel-programs/wiring/fuel-program-reader.ts';
import { createFlaggedPurchaseReader } from '#shared/fuelings/store/flagged-purchases.ts';
import { createSimulationStore } from '#shared/sandbox/store/sandbox-simulations.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { vehicleReader } from '#shared/wiring/table-stores.ts';
import { createSavingsDayStore } from '../store/savings-days.ts';
import type { SavingsReportDeps } from '../usecases/savings-report.ts';

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
