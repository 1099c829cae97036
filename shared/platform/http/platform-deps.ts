import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Clock } from '#shared/kernel/time.ts';
import type { Plan } from '#shared/plans/domain/plans.ts';
import type { Stage } from '../config.ts';
import type { FindKey, TouchKey } from './authenticate.ts';
import type { HasGrant } from './authorize.ts';
import type { UsageCounters } from './limits.ts';

/**
 * The side effects the HTTP chain needs, passed in so tests can pass fakes; the composition root
 * (shared/wiring/http.ts) builds the real ones.
 */
export interface PlatformDeps {
  stage: Stage;
  clock: Clock;
  findKey: FindKey;
  /** Stamps a key's `last_used_at`; absent in tests that do not care. */
  touchKey?: TouchKey;
  hasGrant: HasGrant;
  plan: (name: string) => Promise<Plan | null>;
  counters: UsageCounters;
  /**
   * Where idempotent routes keep their answers (one store per operation). Only their deps carry it
   * (shared/wiring/idempotent-http.ts), so the other bundles leave Powertools idempotency out.
   */
  idempotencyStore?: (operationId: string) => BasePersistenceLayer;
}
