import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequenceKey, storedEnvelope } from '#shared/events/store/events.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { createFleetStore, fleetKey } from '#shared/fleets/store/fleets.ts';
import {
  deactivateFleet,
  grantedFleet,
  provisionFleet,
  updateFleet,
} from '#shared/fleets/usecases/fleets.ts';
import { newId } from '#shared/kernel/ids.ts';
import { fixedClock } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { createCursorCodec } from '#shared/table/cursor.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';

const client = testDocumentClient();
let table: string;
let deps: Parameters<typeof provisionFleet>[0];

beforeAll(async () => {
  table = await createTestTable(client, 'fleets');
  deps = {
    fleets: createFleetStore(client, table, createCursorCodec('test-key')),
    stage: 'prod',
    clock: fixedClock(Date.parse('2026-11-21T12:00:00Z')),
  };
});
afterAll(() => deleteTestTable(client, table));

const body = { name: 'Acme Freight', timezone: 'America/Chicago', contact_email: 'ops@acme.test' };

describe('provisioning', () => {
  it('writes the fleet, the grant and fleet.provisioned (sequence 1) together', async () => {
    const partnerId = newId('partner');
    const fleet = await provisionFleet(deps, partnerId, body);

    expect(await grantedFleet(deps, partnerId, fleet.id)).toEqual(fleet);
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :evt)',
        ExpressionAttributeValues: { ':pk': `FLEET#${fleet.id}`, ':evt': 'EVT#' },
      }),
    );
    expect(Items).toHaveLength(1);
    expect(storedEnvelope(Items[0] ?? {})).toMatchObject({
      type: 'fleet.provisioned',
      sequence: 1,
      fleet_id: fleet.id,
      api_version: '2026-07-01',
      sandbox: false,
    });
    expect(Items[0]?.partner_id).toBe(partnerId);
  });

  it('continues the per-fleet sequence after provisioning', async () => {
    const fleet = await provisionFleet(deps, newId('partner'), body);
    const recorder = eventRecorderOn(client, table, 'prod');
    const second = await recorder.record(fleet.id, 'vehicle.online', { vehicle_id: 'veh_x' });
    const third = await recorder.record(fleet.id, 'vehicle.offline', { vehicle_id: 'veh_x' });
    expect([second.sequence, third.sequence]).toEqual([2, 3]);
    const { Item } = await client.send(new GetCommand({ TableName: table, Key: sequenceKey(fleet.id) }));
    expect(Item?.value).toBe(3);
  });

  it('writes nothing when the transaction fails (fleet id already taken)', async () => {
    const partnerId = newId('partner');
    const fleet = await provisionFleet(deps, partnerId, body);
    const otherPartner = newId('partner');
    await expect(
      deps.fleets.provision({ ...fleet, name: 'Impostor' }, otherPartner, {
        id: newId('event'),
        type: 'fleet.provisioned',
        api_version: '2026-07-01',
        sandbox: false,
        sequence: 1,
        occurred_at: fleet.createdAt,
        fleet_id: fleet.id,
        data: {},
      }),
    ).rejects.toThrow();
    expect(await deps.fleets.hasGrant(otherPartner, fleet.id)).toBe(false);
    const { Item } = await client.send(new GetCommand({ TableName: table, Key: fleetKey(fleet.id) }));
    expect(Item?.name).toBe('Acme Freight');
  });
});

describe("a partner's view", () => {
  it('lists only its own granted fleets, in creation order, across pages', async () => {
    const partnerId = newId('partner');
    const mine = [];
    for (let i = 0; i < 3; i++)
      mine.push(await provisionFleet(deps, partnerId, { ...body, name: `Mine ${i}` }));
    await provisionFleet(deps, newId('partner'), { ...body, name: 'Not mine' });

    const first = await deps.fleets.listGranted(partnerId, 2, undefined);
    const second = await deps.fleets.listGranted(partnerId, 2, first.next_cursor ?? undefined);
    expect([...first.data, ...second.data].map((f) => f.name)).toEqual(['Mine 0', 'Mine 1', 'Mine 2']);
    expect(second.next_cursor).toBeNull();
  });

  it('gets 404 for a fleet granted to another partner, and cannot change or delete it', async () => {
    const owner = newId('partner');
    const intruder = newId('partner');
    const fleet = await provisionFleet(deps, owner, body);
    // Each attempt starts only when awaited, so no rejection is left unhandled meanwhile.
    const attempts = [
      () => grantedFleet(deps, intruder, fleet.id),
      () => updateFleet(deps, intruder, fleet.id, { name: 'Hijacked' }),
      () => deactivateFleet(deps, intruder, fleet.id),
    ];
    for (const attempt of attempts) {
      await expect(attempt()).rejects.toSatisfy(
        (e: unknown) => e instanceof ApiError && e.code === 'resource_not_found',
      );
    }
    expect((await grantedFleet(deps, owner, fleet.id)).name).toBe('Acme Freight');
  });

  it('updates fields, clears with null, and soft-deactivates (grant gone, fleet inactive)', async () => {
    const partnerId = newId('partner');
    const fleet = await provisionFleet(deps, partnerId, { ...body, external_ref: 'CRM-1' });
    const updated = await updateFleet(deps, partnerId, fleet.id, { name: 'Renamed', external_ref: null });
    expect(updated).toMatchObject({ name: 'Renamed', externalRef: null, contactEmail: 'ops@acme.test' });

    await deactivateFleet(deps, partnerId, fleet.id);
    expect(await deps.fleets.hasGrant(partnerId, fleet.id)).toBe(false);
    expect((await deps.fleets.get(fleet.id))?.status).toBe('inactive');
    expect((await deps.fleets.listGranted(partnerId, 10, undefined)).data).toHaveLength(0);
    await expect(deactivateFleet(deps, partnerId, fleet.id)).rejects.toThrow(ApiError);
  });
});
