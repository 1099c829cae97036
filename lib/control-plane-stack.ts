import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { DataTable } from './data.ts';

/** Fixed like the stage stacks' names: operators type it (`cdk deploy FleetFuel-control`). */
export const CONTROL_STACK_NAME = 'FleetFuel-control';

/**
 * The control plane both stages read: accounts, keys, plans, production access and the audit
 * trail, in a table of its own that is always retained (losing it would lock every customer out).
 * Deployed first; each stage stack is handed the table and granted only what its functions need.
 * It also holds the operators' role: the principals of this account that may assume it call the
 * operator API (`execute-api:Invoke` on the production stage's /admin routes, granted there).
 */
export class ControlPlaneStack extends Stack {
  readonly data: DataTable;
  readonly operatorRole: Role;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, props);
    this.data = new DataTable(this, 'Control', { retainData: true });
    this.operatorRole = new Role(this, 'OperatorRole', {
      assumedBy: new AccountRootPrincipal(),
      description: 'Fleet fuel operators: call the operator API (/admin/v1/) on the production stage',
    });
    new CfnOutput(this, 'ControlTableName', {
      value: this.data.table.tableName,
      description: 'The control-plane table (accounts, keys, plans, production access, audit)',
    });
    new CfnOutput(this, 'OperatorRoleArn', {
      value: this.operatorRole.roleArn,
      description: 'Assume this role to sign operator API requests (SigV4, service execute-api)',
    });
  }
}
