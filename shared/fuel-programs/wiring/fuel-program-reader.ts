import { createFuelProgramReader } from '#shared/fleets/store/fleets.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import type { FuelProgramSource } from '../usecases/fuel-programs.ts';

/**
 * A fleet's fuel card program (the fleet item's attribute) for the functions that record or report
 * fills (the savings report, the fill recorders): apart from the station sources, which bundle the
 * highway graph.
 */
export const fuelProgramReader = /* @__PURE__ */ perInfrastructure(
  ({ client, config }): FuelProgramSource => createFuelProgramReader(client, config.tableName),
);
