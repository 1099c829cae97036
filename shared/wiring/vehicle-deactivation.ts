import { endGuidanceOfDeactivatedVehicle } from '../usecases/guidance.ts';
import type { DeactivationDeps } from '../usecases/vehicles.ts';
import { guidanceWriteDeps } from './guidance.ts';
import { perInfrastructure } from './infrastructure.ts';
import { vehicleDeps } from './vehicles.ts';

/**
 * Deactivation also ends the vehicle's guidance session, through the guidance feature's use case;
 * apart from vehicles.ts so the other vehicle functions bundle no guidance.
 */
export const deactivationDeps = /* @__PURE__ */ perInfrastructure(
  (infra): DeactivationDeps => ({
    ...vehicleDeps(infra),
    endGuidance: (fleetId, vehicleId) =>
      endGuidanceOfDeactivatedVehicle(guidanceWriteDeps(infra), fleetId, vehicleId),
  }),
);
