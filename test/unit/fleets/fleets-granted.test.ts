import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { UNSET_TRUCK_PROFILE } from '#shared/fleets/domain/truck-profile.ts';
import { createFleetStore, fleetKey, toFleetItem } from '#shared/fleets/store/fleets.ts';
import { NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';

const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());
// The mock patches the class for every file that runs in this worker after this one: put it back.
afterAll(() => dynamo.restore());

const fleetItem = (id: string) =>
  toFleetItem({
    id,
    name: `Fleet ${id}`,
    externalRef: null,
    contactEmail: null,
    timezone: 'America/Chicago',
    status: 'active',
    defaultMinArrivalFuelPercent: 15,
    assumedDepartureFuelPercent: 100,
    fuelTaxTreatment: 'ifta',
    fuelProgram: NO_FUEL_PROGRAM,
    truckProfile: { ...UNSET_TRUCK_PROFILE },
    partnerId: 'ptn_1',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  });

describe('fleet store: a partner’s granted fleets', () => {
  const ids = ['flt_a', 'flt_b', 'flt_c'];
  const store = createFleetStore(documents, 't', createCursorCodec('k'));
  const askedIds = (input: unknown) =>
    ((input as { RequestItems: { t: { Keys: { pk: string }[] } } }).RequestItems.t.Keys ?? []).map((key) =>
      key.pk.replace('FLEET#', ''),
    );

  it('asks again for fleets DynamoDB left unprocessed and lists every granted fleet in grant order', async () => {
    dynamo.on(QueryCommand).resolves({ Items: ids.map((id) => ({ fleet_id: id })) });
    let throttledOnce = false;
    dynamo.on(BatchGetCommand).callsFake((input) => {
      const asked = askedIds(input);
      const left = throttledOnce ? [] : asked.filter((id) => id !== 'flt_c');
      throttledOnce = true;
      return {
        Responses: { t: asked.filter((id) => !left.includes(id)).map(fleetItem) },
        UnprocessedKeys: left.length ? { t: { Keys: left.map(fleetKey) } } : {},
      };
    });
    const page = await store.listGranted('ptn_1', 50, undefined);
    expect(page.data.map((fleet) => fleet.id)).toEqual(ids);
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it('fails the read when DynamoDB keeps fleets unprocessed, rather than answering a shorter list', async () => {
    dynamo.on(QueryCommand).resolves({ Items: ids.map((id) => ({ fleet_id: id })) });
    dynamo.on(BatchGetCommand).callsFake((input) => ({
      Responses: { t: [] },
      UnprocessedKeys: { t: { Keys: askedIds(input).map(fleetKey) } },
    }));
    // The pauses between rounds (100 ms to 800 ms) run on a fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const listed = expect(store.listGranted('ptn_1', 50, undefined)).rejects.toThrow(
        /3 fleets unprocessed/,
      );
      await vi.runAllTimersAsync();
      await listed;
    } finally {
      vi.useRealTimers();
    }
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(5);
  });
});
