import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_PRINCIPALS_CONTEXT } from '#lib/control-plane-stack.ts';
import { addStages, type FleetFuelStages } from '#lib/fleet-fuel-app.ts';
import { settingsFor, stageSettings } from '#lib/stage.ts';
import { functionEntries, repoRoot } from '#scripts/bundle-functions.ts';
import { stageTemplate } from './stage-template.ts';
import { TEST_OPERATOR } from './synthesize.ts';

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
type Resource = { Properties: Record<string, unknown> };

// The whole app as `cdk synth` composes it, with a placeholder bundle per function: what is
// asserted here is the configuration, not the code (test/cdk/stacks.test.ts synthesizes the real
// bundles).
let functionsDir: string;
let context: Record<string, unknown>;

beforeAll(() => {
  functionsDir = mkdtempSync(join(tmpdir(), 'fleet-fuel-routing-'));
  for (const { name } of functionEntries()) {
    mkdirSync(join(functionsDir, name));
    writeFileSync(join(functionsDir, name, 'index.mjs'), 'export const handler = async () => ({});\n');
  }
  context = (
    JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }
  ).context;
});

afterAll(() => rmSync(functionsDir, { recursive: true, force: true }));

function synth(extra: Record<string, unknown> = {}): FleetFuelStages {
  return addStages(
    new App({ context: { ...context, [OPERATOR_PRINCIPALS_CONTEXT]: TEST_OPERATOR, ...extra } }),
    {
      functionsDir,
    },
  );
}

function routingEnginesOf(template: Template): Set<unknown> {
  const functions = Object.values(
    template.findResources('AWS::Lambda::Function') as Record<string, Resource>,
  );
  return new Set(
    functions.map(
      (fn) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables.ROUTING_ENGINE,
    ),
  );
}

/** The geo-routes statements and the roles their policies are attached to. */
function geoGrants(template: Template) {
  const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>);
  return policies.flatMap((policy) =>
    (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement.filter((statement) =>
      JSON.stringify(statement.Action).includes('geo-routes'),
    ).map((statement) => ({
      statement,
      roles: (policy.Properties.Roles as { Ref: string }[]).map((role) => role.Ref),
    })),
  );
}

describe('routing engine per stage', () => {
  let stages: FleetFuelStages;
  beforeAll(() => {
    stages = synth();
  }, 120_000);

  it('routes production with Amazon Location and the sandbox with the embedded graph', () => {
    expect(stageSettings.prod.routingEngine).toBe('amazon-location');
    expect(stageSettings.sandbox.routingEngine).toBe('embedded');
    expect(routingEnginesOf(stageTemplate(stages.prod))).toEqual(new Set(['amazon-location']));
    expect(routingEnginesOf(stageTemplate(stages.sandbox))).toEqual(new Set(['embedded']));
  });

  it('lets production’s routing roles, and only those, call CalculateRoutes on the provider', () => {
    const grants = geoGrants(stageTemplate(stages.prod));
    const roleId = (group: 'api' | 'guidance-worker') =>
      stages.prod.getLogicalId(
        stages.prod.roles.roleFor(group).node.defaultChild as Parameters<typeof stages.prod.getLogicalId>[0],
      );

    expect(grants.map(({ statement }) => statement)).toEqual(
      Array(grants.length).fill({
        Action: 'geo-routes:CalculateRoutes',
        Effect: 'Allow',
        Resource: {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':geo-routes:', { Ref: 'AWS::Region' }, '::provider/default'],
          ],
        },
      }),
    );
    expect(new Set(grants.flatMap(({ roles }) => roles))).toEqual(
      new Set([roleId('api'), roleId('guidance-worker')]),
    );
  });

  it('gives the sandbox no geo-routes permission', () => {
    expect(geoGrants(stageTemplate(stages.sandbox))).toEqual([]);
  });
});

describe('the fallback switch: -c routingEngine=embedded', () => {
  it('puts production on the embedded graph, without the geo-routes permission', () => {
    const stages = synth({ routingEngine: 'embedded' });

    const prod = stageTemplate(stages.prod);
    expect(routingEnginesOf(prod)).toEqual(new Set(['embedded']));
    expect(geoGrants(prod)).toEqual([]);
  }, 120_000);

  it('leaves the sandbox on the embedded graph whatever production routes with', () => {
    expect(settingsFor('sandbox', { routingEngine: 'amazon-location' }).routingEngine).toBe('embedded');
    expect(settingsFor('prod', { routingEngine: 'amazon-location' }).routingEngine).toBe('amazon-location');
    expect(settingsFor('prod', {})).toBe(stageSettings.prod);
  });

  it.each(['amazon', 'Embedded', '', true])('stops the synth on routingEngine=%j', (value) => {
    expect(() => synth({ routingEngine: value })).toThrow(
      `Context 'routingEngine' must be one of 'embedded', 'amazon-location'; got ${JSON.stringify(value)}.`,
    );
  });
});
