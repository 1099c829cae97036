import * as z from 'zod/mini';
import { FUEL_LEVEL_SOURCES } from '../domain/fuel-level.ts';

/** Where a fuel level in an answer comes from (trips, routes in vehicle-shortcut form, guidance). */
export const fuelLevelSource = z.enum(FUEL_LEVEL_SOURCES).check(
  z.meta({
    id: 'FuelLevelSource',
    description: [
      'Where the fuel level comes from:',
      '- `reported`: the tank sensor, with the latest breadcrumb (or the level the request gave);',
      '- `projected`: the last reported level less the fuel for the road miles driven since, at the vehicle’s estimated_mpg;',
      '- `assumed`: the vehicle never reported fuel_level_percent, so the fleet’s assumed_departure_fuel_percent (100, a full tank, unless set) is assumed at departure, less the fuel for the miles driven since.',
    ].join('\n'),
  }),
);
