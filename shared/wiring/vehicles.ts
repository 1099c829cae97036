import type { VehicleDeps } from '../usecases/vehicles.ts';
import { perInfrastructure } from './infrastructure.ts';
import { vehicleStore } from './table-stores.ts';

/** The vehicle registry (deactivation, which also ends guidance, is wired in vehicle-deactivation.ts). */
export const vehicleDeps = /* @__PURE__ */ perInfrastructure(
  (infra): VehicleDeps => ({ vehicles: vehicleStore(infra), clock: infra.clock }),
);
