import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '#shared/table/table.ts';
import { removalPolicyFor } from './removal.ts';

export interface DataTableProps {
  /** Prod keeps its table through stack deletion and refuses DeleteTable; the sandbox may be torn down. */
  retainData: boolean;
}

/**
 * The single DynamoDB table. Its keys, indexes and TTL attribute come from `TABLE_KEYS`, the same object
 * the store code, the local stack and the integration tests use, so the deployed shape cannot drift.
 */
export class DataTable extends Construct {
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: DataTableProps) {
    super(scope, id);
    const stringKey = (name: string) => ({ name, type: AttributeType.STRING });
    // TableV2 (AWS::DynamoDB::GlobalTable) is CDK's recommended table: adding a replica region later
    // is a property change instead of a table migration.
    this.table = new TableV2(this, 'Table', {
      partitionKey: stringKey(TABLE_KEYS.partitionKey),
      sortKey: stringKey(TABLE_KEYS.sortKey),
      globalSecondaryIndexes: TABLE_KEYS.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: ProjectionType[index.projection],
      })),
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      // Traffic is spiky (location batches, minute-ly jobs) and small at first: pay per request.
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.retainData,
      removalPolicy: removalPolicyFor(props.retainData),
    });
  }
}
