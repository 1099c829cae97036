import { createSavingsDayStore } from '#shared/reports/store/savings-days.ts';
import { deliveryDeps, webhookEndpointDeps } from '#shared/webhooks/wiring/webhooks.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import { createIntegrationCounterStore } from '../store/integration-counters.ts';
import { createIntegrationFleetStateStore } from '../store/integration-fleet-state.ts';
import { createIntegrationSnapshotStore } from '../store/integration-snapshots.ts';
import type { HealthDeps } from '../usecases/integration-health.ts';
import type { HealthHistoryDeps } from '../usecases/integration-health-history.ts';
import type { SnapshotJobDeps } from '../usecases/integration-health-snapshot.ts';
import type { IntegrationTestDeps } from '../usecases/integration-health-test.ts';

/** The scorecard's aggregates and the fleets (grants, a partner's fleet list). */
export const integrationHealthDeps = /* @__PURE__ */ perInfrastructure(
  (infra): HealthDeps => ({
    counters: createIntegrationCounterStore(infra.client, infra.config.tableName),
    fleetState: createIntegrationFleetStateStore(infra.client, infra.config.tableName),
    endpoints: webhookEndpointDeps(infra).endpoints,
    savingsDays: createSavingsDayStore(infra.client, infra.config.tableName),
    fleets: tableStores(infra).fleets,
    now: infra.clock.now,
  }),
);

/** GET /v1/integration/health/history: the persisted snapshots. */
export const integrationHistoryDeps = /* @__PURE__ */ perInfrastructure(
  (infra): HealthHistoryDeps => ({
    fleets: tableStores(infra).fleets,
    snapshots: createIntegrationSnapshotStore(infra.client, infra.config.tableName),
    now: infra.clock.now,
  }),
);

/** POST /v1/integration/test: the scorecard plus the webhook test send. */
export const integrationTestDeps = /* @__PURE__ */ perInfrastructure(
  (infra): IntegrationTestDeps => ({
    ...integrationHealthDeps(infra),
    send: deliveryDeps(infra).send,
  }),
);

/** The daily snapshot job. */
export const healthSnapshotDeps = /* @__PURE__ */ perInfrastructure(
  (infra): Omit<SnapshotJobDeps, 'onError'> => ({
    ...integrationHealthDeps(infra),
    counters: createIntegrationCounterStore(infra.client, infra.config.tableName),
    snapshots: createIntegrationSnapshotStore(infra.client, infra.config.tableName),
  }),
);
