import { createOperatorTokenStore } from '#shared/accounts/store/operator-tokens.ts';
import { auditStore } from '#shared/accounts/wiring/audit.ts';
import { createFleetStore } from '#shared/fleets/store/fleets.ts';
import { createFuelTaxRateStore } from '#shared/fuel-tax/store/fuel-tax-rates.ts';
import type { FuelTaxRateDeps } from '#shared/fuel-tax/usecases/fuel-tax-rate-operations.ts';
import { keyDeps } from '#shared/keys/wiring/keys.ts';
import type { PlanDeps } from '#shared/plans/usecases/plans.ts';
import {
  createOperatorHandler,
  type OperatorChainDeps,
  type OperatorRouteImplementation,
} from '#shared/platform/http/chain.ts';
import { operatorAuthMode } from '#shared/platform/http/operator.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { createSimulationStore } from '#shared/sandbox/store/sandbox-simulations.ts';
import { provisionSimulatedTrucks } from '#shared/sandbox/usecases/sandbox-simulation.ts';
import { createVehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { perInfrastructure } from '#shared/wiring/infrastructure.ts';
import { tableStores } from '#shared/wiring/table-stores.ts';
import type { OperatorAccountDeps } from '../usecases/operator-accounts.ts';

/** The operator chain: OPERATOR_AUTH (`iam` unless `token`) and, for token mode, the control table. */
export const operatorChainDeps = /* @__PURE__ */ perInfrastructure((infra): OperatorChainDeps => {
  const tokens = createOperatorTokenStore(infra.client, infra.config.controlTableName);
  return {
    stage: infra.config.stage,
    clock: infra.clock,
    authMode: operatorAuthMode(),
    findOperatorToken: (hash) => tokens.find(hash),
  };
});

/**
 * Onboarding and account plans. A new company's sandbox twin goes to the sandbox stage's table
 * (SANDBOX_TABLE_NAME, set where the operator API runs), with its three simulated trucks.
 */
export const operatorAccountDeps = /* @__PURE__ */ perInfrastructure((infra): OperatorAccountDeps => {
  const { sandboxTableName } = infra.config;
  if (!sandboxTableName) {
    throw new Error('SANDBOX_TABLE_NAME is not set: the operator API runs on the production stage only');
  }
  const { accounts, plans } = tableStores(infra);
  return {
    ...keyDeps(infra),
    accounts,
    plans,
    sandboxFleets: createFleetStore(infra.client, sandboxTableName, infra.cursors),
    provisionSimulatedTrucks: async (fleetId) => {
      await provisionSimulatedTrucks(
        {
          simulations: createSimulationStore(infra.client, sandboxTableName),
          vehicles: createVehicleStore(infra.client, sandboxTableName, infra.cursors),
          now: infra.clock.now,
        },
        fleetId,
      );
    },
  };
});

export const planDeps = /* @__PURE__ */ perInfrastructure(
  (infra): PlanDeps => ({ plans: tableStores(infra).plans, audit: auditStore(infra), now: infra.clock.now }),
);

/** The state diesel tax rows operators store, in the control table both stages price from. */
export const fuelTaxRateDeps = /* @__PURE__ */ perInfrastructure(
  (infra): FuelTaxRateDeps => ({
    rates: createFuelTaxRateStore(infra.client, infra.config.controlTableName),
    audit: auditStore(infra),
    now: infra.clock.now,
  }),
);

/**
 * An operator route's Lambda handler: the operator chain with the container's dependencies.
 *
 * @example
 * export const handler = adminHandler(adminOperations.listPlans, async (_input, context) => …);
 */
export function adminHandler<R extends RouteDefinition>(
  route: R,
  implementation: OperatorRouteImplementation<R>,
) {
  return createOperatorHandler(route, implementation, () => operatorChainDeps());
}
