import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { addToSavingsDays, type TransactItem } from '#shared/reports/store/savings-days.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { failedConditionIndexes, isTransactionConflict } from '#shared/table/transactions.ts';
import type { Fueling, StoredVerification } from '#shared/tracking/domain/fueling-record.ts';
import { utcDay } from '../domain/period.ts';
import { verdictChangeFigures } from '../domain/savings.ts';
import { flaggedIndexKeys } from './flagged-purchases.ts';
import { type FuelingRef, fuelingKey, fuelingOf } from './fueling-items.ts';

/**
 * A purchase's new verdict (late breadcrumbs re-checked it) as transaction items: the record's
 * verdict, conditional on the one it was judged from; its entry in the flagged index when it is
 * now flagged; and the change to its day's counts in the savings report, once (named by the
 * re-check).
 */
export function verdictChangeItems(
  tableName: string,
  fleetId: string,
  before: Fueling,
  verification: StoredVerification,
): TransactItem[] {
  const after: Fueling = { ...before, verification };
  const index = flaggedIndexKeys(fleetId, after);
  const sets = ['fueling.verification = :after', ...Object.keys(index).map((name) => `${name} = :${name}`)];
  const values: Record<string, unknown> = {
    ':after': verification,
    ...Object.fromEntries(Object.entries(index).map(([name, value]) => [`:${name}`, value])),
  };
  const names: Record<string, string> = {};
  let condition = 'attribute_exists(pk)';
  if (before.verification) {
    condition +=
      ' AND fueling.verification.#status = :status AND fueling.verification.checkedAt = :checkedAt AND fueling.verification.rechecked = :rechecked';
    names['#status'] = 'status';
    values[':status'] = before.verification.status;
    values[':checkedAt'] = before.verification.checkedAt;
    values[':rechecked'] = before.verification.rechecked;
  } else {
    condition += ' AND attribute_not_exists(fueling.verification)';
  }
  return [
    {
      Update: {
        TableName: tableName,
        Key: fuelingKey(fleetId, before),
        UpdateExpression: `SET ${sets.join(', ')}${'gsi2pk' in index ? '' : ' REMOVE gsi2pk, gsi2sk'}`,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      },
    },
    ...addToSavingsDays(tableName, fleetId, [
      {
        day: utcDay(Date.parse(before.fueledAt)),
        vehicleId: before.vehicleId,
        cause: `${before.id}:verdict:${verification.status}:${verification.checkedAt}`,
        delta: verdictChangeFigures(before, after),
        externalRef: before.externalRef ?? null,
      },
    ]),
  ];
}

/** The same verdict: an outbox carried out again writes it no second time. */
const sameVerdict = (a: StoredVerification, b: StoredVerification) =>
  a.status === b.status && a.checkedAt === b.checkedAt && a.rechecked === b.rechecked;

/** A re-checked verdict whose day item keeps being written at the same moment gives up after this many. */
const MAX_VERDICT_ATTEMPTS = 5;

/** A reported purchase's verdict, written again when late breadcrumbs re-checked it. */
export function createFuelingVerdicts(client: DocumentClient, tableName: string) {
  return {
    async setVerification(fleetId: string, ref: FuelingRef, verification: StoredVerification): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        const { Item } = await client.send(
          new GetCommand({ TableName: tableName, Key: fuelingKey(fleetId, ref), ConsistentRead: true }),
        );
        const before = fuelingOf(Item);
        // Gone (a sandbox reset removed it), or written already by an earlier run of the outbox.
        if (!before || (before.verification && sameVerdict(before.verification, verification))) return;
        try {
          await client.send(
            new TransactWriteCommand({
              TransactItems: verdictChangeItems(tableName, fleetId, before, verification),
            }),
          );
          return;
        } catch (error) {
          // Another verdict was written since the read: it stands, this one is not applied on top.
          if (failedConditionIndexes(error).includes(0)) return;
          // The day's report item is shared with the fleet's other fills: pause and try again.
          if (!isTransactionConflict(error) || attempt >= MAX_VERDICT_ATTEMPTS) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
        }
      }
    },
  };
}
