import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Plan } from '../../domain/plans.ts';
import type { Counters } from '../../store/counters.ts';
import { dynamoClient } from '../../store/dynamo-client.ts';
import { repositories } from '../../store/repositories.ts';
import { config, type Stage } from '../config.ts';
import { type Clock, systemClock } from '../time.ts';
import type { FindKey } from './authenticate.ts';
import type { HasGrant } from './authorize.ts';
import { createIdempotencyStore } from './idempotency.ts';

/** The side effects the HTTP chain needs, injected so tests can pass fakes. */
export interface PlatformDeps {
  stage: Stage;
  clock: Clock;
  findKey: FindKey;
  hasGrant: HasGrant;
  plan: (name: string) => Promise<Plan | null>;
  counters: Counters;
  /** Where idempotent routes keep their answers (one store per operation). */
  idempotencyStore: (operationId: string) => BasePersistenceLayer;
}

let defaults: PlatformDeps | undefined;

/** Built on first use, once per container, from the environment. */
export function platformDeps(): PlatformDeps {
  if (defaults) return defaults;
  const { apiKeys, fleets, plans, counters } = repositories();
  defaults = {
    stage: config().stage,
    clock: systemClock,
    findKey: (hash) => apiKeys.findByHash(hash),
    hasGrant: (partnerId, fleetId) => fleets.hasGrant(partnerId, fleetId),
    plan: (name) => plans.get(name),
    counters,
    idempotencyStore: (operationId) =>
      createIdempotencyStore(config().tableName, dynamoClient(), operationId),
  };
  return defaults;
}
