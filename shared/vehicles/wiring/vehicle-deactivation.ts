import { endGuidanceOfDeactivatedVehicle } from '#shared/guidance/usecases/guidance.ts';
import { guidanceWriteDeps } from '#shared/guidance/wiring/guidance.ts';
import { cancelTripOfDeactivatedVehicle } from '#shared/trips/usecases/trips.ts';
import { tripChangeDeps } from '#shared/trips/wiring/trip-follow-up.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import type { DeactivationDeps } from '../usecases/vehicles.ts';
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
