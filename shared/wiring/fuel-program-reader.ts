import { NO_FUEL_PROGRAM } from '../domain/fuel-program/program.ts';
import { createFuelDiscountStore } from '../store/fuel-discounts.ts';
import type { FuelProgramSource } from '../usecases/fuel-programs.ts';
import { perInfrastructure } from './infrastructure.ts';

/**
 * A fleet's fuel card program for the functions that only record or report fills (the savings
 * report, the fill recorders): apart from the station sources, which bundle the highway graph.
 * The stored discounts stand for the program until the fleet item holds it (rule `none`).
 */
export const fuelProgramReader = /* @__PURE__ */ perInfrastructure(
  ({ client, config }): FuelProgramSource => {
    const discounts = createFuelDiscountStore(client, config.tableName);
    return {
      async get(fleetId) {
        const chains = Object.entries(await discounts.get(fleetId)).map(([chain, discountCents]) => ({
          chain,
          discountCents,
        }));
        return { ...NO_FUEL_PROGRAM, chains };
      },
    };
  },
);
