import { type ITableV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';

/**
 * What production needs of the sandbox stage (its table, for new companies' sandbox twins, and its
 * URL, which production's sandbox-only routes name), handed over through SSM parameters the
 * sandbox writes and production reads at deploy time. Not CloudFormation exports: an export locks
 * the sandbox (it could not replace its table or API while production imports them) and couples
 * every sandbox deploy to production. SSM parameter names are per region, so a second region's
 * deploy keeps its own.
 */
export const SANDBOX_HANDOFF_PARAMETERS = {
  tableName: '/fleet-fuel/sandbox/table-name',
  baseUrl: '/fleet-fuel/sandbox/base-url',
} as const;

/** In the sandbox stack: publishes its table name and API URL. */
export function publishSandboxHandoff(
  scope: Construct,
  values: { tableName: string; baseUrl: string },
): void {
  new StringParameter(scope, 'HandoffTableName', {
    parameterName: SANDBOX_HANDOFF_PARAMETERS.tableName,
    stringValue: values.tableName,
    description: 'The sandbox stage table (production writes new companies’ sandbox twins into it)',
  });
  new StringParameter(scope, 'HandoffBaseUrl', {
    parameterName: SANDBOX_HANDOFF_PARAMETERS.baseUrl,
    stringValue: values.baseUrl,
    description: 'The sandbox stage API URL (production names it on its sandbox-only routes)',
  });
}

/**
 * In the production stack: the sandbox's table and URL, resolved from the parameters each time
 * production deploys (deploy the sandbox first: `cdk deploy --all` orders them).
 */
export function readSandboxHandoff(scope: Construct): { table: ITableV2; baseUrl: string } {
  const tableName = StringParameter.valueForStringParameter(scope, SANDBOX_HANDOFF_PARAMETERS.tableName);
  return {
    table: TableV2.fromTableName(scope, 'SandboxTable', tableName),
    baseUrl: StringParameter.valueForStringParameter(scope, SANDBOX_HANDOFF_PARAMETERS.baseUrl),
  };
}
