import type { App } from 'aws-cdk-lib';
import {
  CONTROL_STACK_NAME,
  ControlPlaneStack,
  OPERATOR_PRINCIPALS_CONTEXT,
  parseOperatorPrincipals,
} from './control-plane-stack.ts';
import { FleetFuelStack } from './fleet-fuel-stack.ts';
import { ROUTING_ENGINE_CONTEXT, type Stage, settingsFor, stackName } from './stage.ts';

export interface FleetFuelStages {
  control: ControlPlaneStack;
  prod: FleetFuelStack;
  sandbox: FleetFuelStack;
}

/**
 * The control plane and both stages from one app, shared by bin/app.ts and the CDK tests so the
 * tests check the real composition. The control plane comes first (both stages read it), the
 * sandbox before production (the operator API on production writes new companies' sandbox twins).
 * Stacks are environment-agnostic: `cdk deploy` targets the caller's account and region, and
 * synth needs no credentials.
 */
export function addStages(app: App, options: { functionsDir: string }): FleetFuelStages {
  const control = new ControlPlaneStack(app, CONTROL_STACK_NAME, {
    operatorPrincipals: parseOperatorPrincipals(app.node.tryGetContext(OPERATOR_PRINCIPALS_CONTEXT)),
    description: 'Fleet fuel guidance, control plane (accounts, keys, plans, production access)',
    tags: { service: 'fleet-fuel-guidance', stage: 'control' },
  });
  // `cdk deploy -c routingEngine=embedded` puts production back on the embedded graph.
  const context = { routingEngine: app.node.tryGetContext(ROUTING_ENGINE_CONTEXT) as unknown };
  const stack = (stage: Stage, withOperatorApi = false) =>
    new FleetFuelStack(app, stackName(stage), {
      settings: settingsFor(stage, context),
      functionsDir: options.functionsDir,
      control,
      ...(withOperatorApi ? { operatorApi: true } : {}),
      description: `Fleet fuel guidance, ${stage} stage`,
      tags: { service: 'fleet-fuel-guidance', stage },
    });
  const sandbox = stack('sandbox');
  const prod = stack('prod', true);
  // Production reads the sandbox's SSM parameters at deploy time: the sandbox deploys first.
  prod.addStackDependency(sandbox, 'production reads the sandbox table and URL from its SSM parameters');
  return { control, sandbox, prod };
}
