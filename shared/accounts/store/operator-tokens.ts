import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';

/**
 * Operator tokens in the control table, by SHA-256: `OPERATOR#<hash>` / `OPERATOR`. Only the local
 * stack has one (its seed writes it); in AWS operators authenticate with IAM and none exists.
 */
export const operatorTokenKey = (tokenHash: string) => ({ pk: `OPERATOR#${tokenHash}`, sk: 'OPERATOR' });

export function createOperatorTokenStore(client: DocumentClient, tableName: string) {
  return {
    async find(tokenHash: string): Promise<{ name: string } | null> {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: operatorTokenKey(tokenHash), ConsistentRead: true }),
      );
      if (!Item) return null;
      return { name: typeof Item.name === 'string' ? Item.name : 'operator' };
    },
  };
}
