import { createAccountStore } from '#shared/accounts/store/accounts.ts';
import { createFleetStore } from '#shared/fleets/store/fleets.ts';
import { createApiKeyStore } from '#shared/keys/store/api-keys.ts';
import { createCounters } from '#shared/plans/store/counters.ts';
import { createPlanStore } from '#shared/plans/store/plans.ts';
import { createVehicleReader, createVehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { perInfrastructure } from './infrastructure.ts';

/**
 * The stores nearly every function needs (keys and plans from the control plane, counters and
 * fleets for the HTTP chain). Stores of one feature only are built in that feature's wiring, so a
 * function bundles no store it never uses.
 */
export const tableStores = /* @__PURE__ */ perInfrastructure(
  ({ client, config: { tableName, controlTableName }, cursors }) => ({
    apiKeys: createApiKeyStore(client, controlTableName, cursors),
    plans: createPlanStore(client, controlTableName),
    accounts: createAccountStore(client, controlTableName, cursors),
    counters: createCounters(client, tableName),
    fleets: createFleetStore(client, tableName, cursors),
  }),
);

/** The vehicles, apart: the routes of keys, accounts, webhooks and events never read them. */
export const vehicleStore = /* @__PURE__ */ perInfrastructure(({ client, config, cursors }) =>
  createVehicleStore(client, config.tableName, cursors),
);

/** Their reads alone, for the features that only look vehicles up (trips, fuelings, locations…). */
export const vehicleReader = /* @__PURE__ */ perInfrastructure(({ client, config }) =>
  createVehicleReader(client, config.tableName),
);
