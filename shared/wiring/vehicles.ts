import { endGuidanceOfDeactivatedVehicle } from '../usecases/guidance.ts';
import type { DeactivationDeps, VehicleDeps } from '../usecases/vehicles.ts';
import { guidanceWiring } from './guidance.ts';
import { perInfrastructure } from './infrastructure.ts';
import { tableStores } from './table-stores.ts';

/** The vehicle registry. */
export const vehicleDeps = perInfrastructure(
  (infra): VehicleDeps => ({ vehicles: tableStores(infra).vehicles, clock: infra.clock }),
);

/** Deactivation also ends the vehicle's guidance session, through the guidance feature's use case. */
export const deactivationDeps = perInfrastructure(
  (infra): DeactivationDeps => ({
    ...vehicleDeps(infra),
    endGuidance: (fleetId, vehicleId) =>
      endGuidanceOfDeactivatedVehicle(guidanceWiring(infra).write(), fleetId, vehicleId),
  }),
);
