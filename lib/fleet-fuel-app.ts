import type { App } from 'aws-cdk-lib';
import { FleetFuelStack } from './fleet-fuel-stack.ts';
import { type Stage, stackName, stageSettings } from './stage.ts';

export interface FleetFuelStages {
  prod: FleetFuelStack;
  sandbox: FleetFuelStack;
}

/**
 * Both stages from one app, shared by bin/app.ts and the CDK tests so the tests check the real
 * composition. Stacks are environment-agnostic: `cdk deploy` targets the caller's account and region,
 * and synth needs no credentials.
 */
export function addStages(app: App, options: { functionsDir: string }): FleetFuelStages {
  const stack = (stage: Stage) =>
    new FleetFuelStack(app, stackName(stage), {
      settings: stageSettings[stage],
      functionsDir: options.functionsDir,
      description: `Fleet fuel guidance, ${stage} stage`,
      tags: { service: 'fleet-fuel-guidance', stage },
    });
  return { prod: stack('prod'), sandbox: stack('sandbox') };
}
