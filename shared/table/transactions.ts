import {
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from './dynamo-client.ts';

interface AwsError {
  name?: string;
  CancellationReasons?: { Code?: string }[];
}

// Matched by name, not instanceof: errors cross bundles and mocks, where class identity is not kept.
const asAwsError = (error: unknown): AwsError => (typeof error === 'object' && error !== null ? error : {});

/** True for a failed condition, alone or as a cancelled transaction (which writes nothing). */
export function isConditionFailure(error: unknown): boolean {
  const { name } = asAwsError(error);
  if (name === 'ConditionalCheckFailedException') return true;
  return failedConditionIndexes(error).length > 0;
}

/**
 * Indexes of the transaction items whose condition failed, so a caller can tell which guard item
 * (external_ref, VIN, …) caused the cancellation.
 */
export function failedConditionIndexes(error: unknown): number[] {
  const { name, CancellationReasons } = asAwsError(error);
  if (name !== 'TransactionCanceledException') return [];
  return (CancellationReasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [index] : [],
  );
}

/** Another transaction touched the same item at the same moment: safe to retry after a pause. */
export function isTransactionConflict(error: unknown): boolean {
  const { name, CancellationReasons } = asAwsError(error);
  if (name === 'TransactionConflictException') return true;
  return (
    name === 'TransactionCanceledException' &&
    (CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict')
  );
}

export type TransactAction = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One conditional write is atomic by itself (and costs half a transaction's write units); two or
 * more go in one transaction, so either all of them are stored or none.
 */
export async function writeAllOrNothing(client: DocumentClient, actions: TransactAction[]) {
  if (actions.length === 0) return;
  const [only] = actions;
  if (actions.length === 1 && only) {
    if (only.Update) await client.send(new UpdateCommand(only.Update));
    else if (only.Put) await client.send(new PutCommand(only.Put));
    return;
  }
  await client.send(new TransactWriteCommand({ TransactItems: actions }));
}

/**
 * A conditional write (one item or a transaction): true when it was stored, false when a condition
 * failed and nothing was. With `orConflict`, a transaction that lost to another on the same items
 * is false too, for callers that read again and decide anew rather than wait and retry.
 */
export async function conditionalWrite(
  write: () => Promise<unknown>,
  { orConflict = false }: { orConflict?: boolean } = {},
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailure(error) || (orConflict && isTransactionConflict(error))) return false;
    throw error;
  }
}

/** `conditionalWrite` of one transaction of these items: true when all of them were stored. */
export function conditionalTransaction(
  client: DocumentClient,
  items: TransactAction[],
  options?: { orConflict?: boolean },
): Promise<boolean> {
  return conditionalWrite(() => client.send(new TransactWriteCommand({ TransactItems: items })), options);
}
