import { createSavingsDayStore } from '../store/savings-days.ts';
import type { SavingsReportDeps } from '../usecases/savings-report.ts';
import { perInfrastructure } from './infrastructure.ts';
import { vehicleReader } from './table-stores.ts';

/** GET /v1/reports/savings: the vehicle-day rows and the vehicles (for ext: and external_ref). */
export const savingsReportDeps = /* @__PURE__ */ perInfrastructure(
  (infra): SavingsReportDeps => ({
    vehicles: vehicleReader(infra),
    savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
    now: infra.clock.now,
  }),
);
