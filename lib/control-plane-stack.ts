import { Annotations, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AccountRootPrincipal,
  ArnPrincipal,
  CompositePrincipal,
  type IPrincipal,
  PrincipalWithConditions,
  Role,
} from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { DataTable } from './data.ts';

/** Fixed like the stage stacks' names: operators type it (`cdk deploy FleetFuel-control`). */
export const CONTROL_STACK_NAME = 'FleetFuel-control';

/** `cdk deploy -c operatorPrincipals=<arn>,<arn>`: the IAM users or roles that may become operators. */
export const OPERATOR_PRINCIPALS_CONTEXT = 'operatorPrincipals';

export interface ControlPlaneStackProps extends StackProps {
  /**
   * ARNs of the IAM users or roles allowed to assume the operators' role, with MFA. Empty: the
   * synth carries an error (so `cdk deploy` refuses) naming the context value to set.
   */
  operatorPrincipals: readonly string[];
}

/** The comma-separated context value as ARNs; anything that is not an IAM user or role ARN is refused. */
export function parseOperatorPrincipals(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value.map(String) : String(value).split(',');
  const arns = list.map((arn) => arn.trim()).filter(Boolean);
  for (const arn of arns) {
    if (!/^arn:aws[\w-]*:iam::\d{12}:(user|role)\/.+$/.test(arn)) {
      throw new Error(
        `${OPERATOR_PRINCIPALS_CONTEXT}: '${arn}' is not an IAM user or role ARN ` +
          '(arn:aws:iam::<account>:user/<name> or …:role/<name>).',
      );
    }
  }
  return arns;
}

/**
 * The control plane both stages read: accounts, keys, plans, production access and the audit
 * trail, in a table of its own that is always retained (losing it would lock every customer out).
 * Deployed first; each stage stack is handed the table and granted only what its functions need.
 * It also holds the operators' role: the named IAM users or roles that may assume it, with MFA,
 * call the operator API (`execute-api:Invoke` on the production stage's /admin routes, granted there).
 */
export class ControlPlaneStack extends Stack {
  readonly data: DataTable;
  readonly operatorRole: Role;

  constructor(scope: Construct, id: string, props: ControlPlaneStackProps) {
    // Every customer's keys live here: deleting the stack must be a deliberate two-step act.
    super(scope, id, { ...props, terminationProtection: true });
    this.data = new DataTable(this, 'Control', { retainData: true });
    const named = props.operatorPrincipals.map((arn) => new ArnPrincipal(arn));
    // Operators approve production access and mint keys for any account: only the people named
    // may assume the role, and only with MFA (a leaked access key alone is not enough).
    const trusted: IPrincipal =
      named.length > 0 ? new CompositePrincipal(...named) : new AccountRootPrincipal();
    this.operatorRole = new Role(this, 'OperatorRole', {
      assumedBy: new PrincipalWithConditions(trusted, { Bool: { 'aws:MultiFactorAuthPresent': 'true' } }),
      description: 'Fleet fuel operators: call the operator API (/admin/v1/) on the production stage',
      maxSessionDuration: Duration.hours(1),
    });
    if (named.length === 0) {
      Annotations.of(this.operatorRole).addError(
        `Name the operators: cdk deploy -c ${OPERATOR_PRINCIPALS_CONTEXT}=arn:aws:iam::<account>:user/<name>[,…] ` +
          '(IAM users or roles; they assume the operator role with MFA). docs/operations.md, "The operator profile".',
      );
    }
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
