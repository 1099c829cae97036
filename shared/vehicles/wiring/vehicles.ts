import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { vehicleStore } from '#shared/wiring/table-stores.ts';
import type { VehicleDeps } from '../usecases/vehicles.ts';

/** The vehicle registry (deactivation, which also ends guidance, is wired in vehicle-deactivation.ts). */
export const vehicleDeps = /* @__PURE__ */ perInfrastructure(
  (infra): VehicleDeps => ({ vehicles: vehicleStore(infra), clock: infra.clock }),
);
