import { config } from '../platform/config.ts';
import { createApiKeyStore } from './api-keys.ts';
import { createCounters } from './counters.ts';
import { createCursorCodec } from './cursor.ts';
import { documentClient } from './dynamo-client.ts';
import { createFleetStore } from './fleets.ts';
import { createPlanStore } from './plans.ts';
import { createVehicleStore } from './vehicles.ts';

/**
 * The container's repositories, built on first use from the environment and then reused across
 * invocations. Handlers take what they need from here; tests build their own with the factories.
 */
export function repositories() {
  cached ??= build();
  return cached;
}

let cached: ReturnType<typeof build> | undefined;

function build() {
  const { tableName, cursorSigningKey } = config();
  const client = documentClient();
  const cursors = createCursorCodec(cursorSigningKey);
  return {
    apiKeys: createApiKeyStore(client, tableName),
    plans: createPlanStore(client, tableName),
    counters: createCounters(client, tableName),
    fleets: createFleetStore(client, tableName, cursors),
    vehicles: createVehicleStore(client, tableName, cursors),
  };
}

export type Repositories = ReturnType<typeof repositories>;
