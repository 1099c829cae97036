import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  addToSavingsDays,
  type SavingsContribution,
  type TransactItem,
} from '#shared/reports/store/savings-days.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { failedConditionIndexes, isTransactionConflict } from '#shared/table/transactions.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import { utcDay } from '../domain/period.ts';
import { fuelingFigures, NO_FIGURES, type SavingsFigures, subtractFigures } from '../domain/savings.ts';
import { fillGuardPut } from './fueling-fill-guard.ts';
import {
  cardRefGuardKey,
  type FuelingWrite,
  fuelingKey,
  type RecordOutcome,
  toFuelingItem,
} from './fueling-items.ts';

/** The recording of a fill: one transaction over the fueling and everything it changes. */
export function createFuelingRecording(client: DocumentClient, tableName: string) {
  return {
    async record(fleetId: string, write: FuelingWrite): Promise<RecordOutcome> {
      const { fueling, mergeWith, follow, passOver, announce, guard } = write;
      const items: TransactItem[] = [
        {
          Put: {
            TableName: tableName,
            Item: { ...toFuelingItem(fleetId, fueling), ...(announce ? { matched_event: announce } : {}) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      const guardIndex = fueling.cardTransactionRef ? items.length : -1;
      if (fueling.cardTransactionRef) {
        items.push({
          Put: {
            TableName: tableName,
            Item: {
              ...cardRefGuardKey(fleetId, fueling.cardTransactionRef),
              fueling_id: fueling.id,
              fueled_at: fueling.fueledAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
      }
      if (mergeWith) items.push(mergeUpdate(tableName, fleetId, write, mergeWith));
      const contributions = fillContributions(write);
      for (const stopWrite of [follow, passOver]) {
        if (!stopWrite) continue;
        items.push(stopWrite.update);
        contributions.push(...stopWrite.contributions);
      }
      // One update per day item: the fill, what it absorbs and the stop it follows often share one.
      items.push(...addToSavingsDays(tableName, fleetId, contributions));
      if (guard) items.push(fillGuardPut(tableName, fleetId, fueling, guard));
      try {
        await client.send(new TransactWriteCommand({ TransactItems: items }));
        return { recorded: true };
      } catch (error) {
        const failed = failedConditionIndexes(error);
        if (failed.includes(0)) return { recorded: false, reason: 'already_recorded' };
        if (failed.includes(guardIndex)) return { recorded: false, reason: 'duplicate_card_ref' };
        if (failed.length > 0 || isTransactionConflict(error)) return { recorded: false, reason: 'changed' };
        throw error;
      }
    },
  };
}

/** The update linking the record a fill merges with to the fill (and, for a match, handing it over). */
function mergeUpdate(
  tableName: string,
  fleetId: string,
  { fueling, handedTo }: FuelingWrite,
  mergeWith: Fueling,
): TransactItem {
  // A detection joining a reported fill confirms its gallons; a report absorbing a detection
  // only links it. Either way both records name each other.
  const confirms = mergeWith.source === 'reported' && fueling.source === 'detected';
  const sets = ['linked = :id', 'fueling.linkedFuelingId = :id'];
  const values: Record<string, unknown> = { ':id': fueling.id };
  if (confirms) {
    sets.push('fueling.detectedGallons = :g');
    values[':g'] = fueling.gallons;
  }
  // A matched fill joining an unmatched record of itself: that record was not unmatched either.
  if (fueling.stopId !== null && !mergeWith.stopId) {
    sets.push('fueling.unmatchedReason = :none');
    values[':none'] = null;
  }
  // A matched detection joining an unmatched report hands it the match (handedTo): the report
  // is the fill listed and counted, so it names the stop, missed nothing, and is priced
  // against the stop it followed.
  if (confirms && handedTo) {
    const match = {
      guidanceId: handedTo.guidanceId,
      stopId: handedTo.stopId,
      tripId: handedTo.tripId ?? null,
      tripStopId: handedTo.tripStopId ?? null,
      recommendedNetPrice: handedTo.recommendedNetPrice ?? null,
      stationId: handedTo.stationId,
      missedSavingsUsd: 0,
      passedOverStopId: null,
      effectivePrice: handedTo.effectivePrice ?? null,
      counterfactual: handedTo.counterfactual ?? null,
      cardSavingsUsd: handedTo.cardSavingsUsd ?? null,
      routingSavingsUsd: handedTo.routingSavingsUsd ?? null,
    };
    for (const [name, value] of Object.entries(match)) {
      sets.push(`fueling.${name} = :${name}`);
      values[`:${name}`] = value;
    }
  }
  return {
    Update: {
      TableName: tableName,
      Key: fuelingKey(fleetId, mergeWith),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(linked)',
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * What the fill changes in the savings report. The report counts each fill once: a detection
 * merged into a reported fueling counts nothing (fuelingFigures), and one a report absorbs stops
 * counting on its own day. Elements are named by this new record (unique): its own, and the
 * absorbed detection's.
 */
function fillContributions({ fueling, mergeWith, handedTo }: FuelingWrite): SavingsContribution[] {
  const contributions: SavingsContribution[] = [];
  const count = (of: Fueling, cause: string, delta: SavingsFigures) =>
    contributions.push({
      day: utcDay(Date.parse(of.fueledAt)),
      vehicleId: fueling.vehicleId,
      cause,
      delta,
      externalRef: fueling.externalRef ?? mergeWith?.externalRef ?? null,
    });
  count(fueling, fueling.id, fuelingFigures(fueling));
  if (mergeWith?.source === 'detected') {
    count(mergeWith, `${fueling.id}:absorbed`, subtractFigures(NO_FIGURES, fuelingFigures(mergeWith)));
  }
  if (mergeWith?.source === 'reported' && handedTo) {
    // The report it matches missed nothing after all, and is priced against the stop it
    // followed: its day takes the difference.
    count(
      mergeWith,
      `${fueling.id}:matched`,
      subtractFigures(fuelingFigures(handedTo), fuelingFigures(mergeWith)),
    );
  }
  return contributions;
}
