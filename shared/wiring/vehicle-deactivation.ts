import { endGuidanceOfDeactivatedVehicle } from '../usecases/guidance.ts';
import { cancelTripOfDeactivatedVehicle } from '../usecases/trips.ts';
import type { DeactivationDeps } from '../usecases/vehicles.ts';
import { guidanceWriteDeps } from './guidance.ts';
import { perInfrastructure } from './infrastructure.ts';
import { tripChangeDeps } from './trip-follow-up.ts';
import { vehicleDeps } from './vehicles.ts';

/**
 * Deactivation also ends the vehicle's guidance session and cancels its active trip, through those
 * features' use cases; apart from vehicles.ts so the other vehicle functions bundle neither.
 */
export const deactivationDeps = /* @__PURE__ */ perInfrastructure(
  (infra): DeactivationDeps => ({
    ...vehicleDeps(infra),
    endGuidance: (fleetId, vehicleId) =>
      endGuidanceOfDeactivatedVehicle(guidanceWriteDeps(infra), fleetId, vehicleId),
    cancelActiveTrip: (fleetId, vehicleId) =>
      cancelTripOfDeactivatedVehicle(tripChangeDeps(infra), fleetId, vehicleId),
  }),
);
