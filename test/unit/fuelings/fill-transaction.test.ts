import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFuelingStore } from '#shared/fuelings/store/fuelings.ts';
import { followWrite, type RecommendedStopRecord } from '#shared/guidance/store/recommended-stops.ts';
import { addToSavingsDays, savingsDayKey, shardOf } from '#shared/reports/store/savings-days.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';

const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());
// The mock patches the class for every file that runs in this worker after this one: put it back.
afterAll(() => dynamo.restore());

const FLEET = 'flt_01JD7ZK3M4N5P6Q7R8S9T0V1W2';
const VEHICLE = 'veh_01JD7ZK3M4N5P6Q7R8S9T0V1W4';
const DAY_MS = Date.parse('2026-11-21T00:00:00Z');

const keyOf = (item: Record<string, unknown>) => {
  const op = Object.values(item)[0] as {
    Key?: { pk: string; sk: string };
    Item?: { pk: string; sk: string };
  };
  const key = op.Key ?? op.Item;
  return `${key?.pk}|${key?.sk}`;
};

describe('addToSavingsDays', () => {
  it('adds the contributions of one day item in one update, and leaves out empty ones', () => {
    const items = addToSavingsDays('t', FLEET, [
      { day: '2026-11-21', vehicleId: VEHICLE, cause: 'fuel_a', delta: { fuelings: 1 } },
      { day: '2026-11-21', vehicleId: VEHICLE, cause: 'gds_a:followed', delta: { followedStops: 1 } },
      { day: '2026-11-20', vehicleId: VEHICLE, cause: 'fuel_a:absorbed', delta: { fuelings: -1 } },
      { day: '2026-11-19', vehicleId: VEHICLE, cause: 'nothing', delta: { fuelings: 0 } },
    ]);
    expect(items.map((item) => item.Update?.Key)).toEqual([
      savingsDayKey(FLEET, '2026-11-21', shardOf(VEHICLE)),
      savingsDayKey(FLEET, '2026-11-20', shardOf(VEHICLE)),
    ]);
    const first = items[0]?.Update?.ExpressionAttributeValues as Record<string, Set<string>> | undefined;
    expect(first?.[':c']?.size).toBe(2);
  });
});

describe("a fill's transaction", () => {
  const fueling: Fueling = {
    id: 'fuel_01JD7ZK3M4N5P6Q7R8S9T0V1W9',
    vehicleId: VEHICLE,
    source: 'reported',
    gallons: 100,
    fueledAt: '2026-11-21T15:00:00.000000Z',
    latitude: 35,
    longitude: -97,
    fuelLevelBeforePercent: null,
    fuelLevelAfterPercent: null,
    guidanceId: 'gd_01JD7ZK3M4N5P6Q7R8S9T0V1W5',
    stopId: 'gds_01JD7ZK3M4N5P6Q7R8S9T0V1W6',
    stationId: null,
    createdAt: '2026-11-21T16:00:00.000000Z',
    netPrice: 3.4,
    missedSavingsUsd: 0,
  };
  const record = (overrides: Partial<RecommendedStopRecord>): RecommendedStopRecord => ({
    vehicleId: VEHICLE,
    guidanceId: fueling.guidanceId as string,
    tripId: null,
    stopId: fueling.stopId as string,
    tripStopId: null,
    stationId: 'stn_AAAAAAAAAAAAAAAAAAAAAAAAAA',
    stationName: "Love's",
    latitude: 35,
    longitude: -97,
    netPrice: 3.4,
    gallonsToBuy: 100,
    recommendedAtMs: DAY_MS + 10 * 3_600_000,
    withdrawnAtMs: null,
    due: false,
    followedFuelingId: null,
    countedDay: null,
    ...overrides,
  });

  it.each([
    ['standing', record({})],
    ['withdrawn the same day, not due', record({ withdrawnAtMs: DAY_MS + 14 * 3_600_000 })],
    [
      'withdrawn due and counted that day',
      record({ withdrawnAtMs: DAY_MS + 14 * 3_600_000, countedDay: '2026-11-21' }),
    ],
  ])('following a stop %s touches every item once', async (_state, stop) => {
    dynamo.on(TransactWriteCommand).resolves({});
    const store = createFuelingStore(documents, 't');
    const outcome = await store.record(FLEET, {
      fueling,
      mergeWith: null,
      follow: followWrite('t', FLEET, stop, fueling.id, null),
      guard: { version: 3, recent: [] },
    });
    expect(outcome).toEqual({ recorded: true });
    const items = dynamo.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    const keys = items.map((item) => keyOf(item as Record<string, unknown>));
    expect(new Set(keys).size).toBe(keys.length);
    const day = items.find((item) => item.Update?.Key?.sk === `SAVDAY#2026-11-21#${shardOf(VEHICLE)}`);
    // The fill's own figures, and the followed stop's when it was already withdrawn.
    const values = day?.Update?.ExpressionAttributeValues as Record<string, Set<string>> | undefined;
    const elements = values?.[':c'];
    expect(elements?.size).toBe(stop.withdrawnAtMs === null ? 1 : 2);
  });
});
