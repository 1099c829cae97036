import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CachedRoute,
  createGuidanceRouteStore,
  guidanceRouteKey,
} from '#shared/guidance/store/guidance-routes.ts';
import { createTestTable, deleteTestTable, testDocumentClient } from '#test/support/dynamodb.ts';

const client = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = await createTestTable(client, 'guidance-routes');
});
afterAll(() => deleteTestTable(client, table));

const NOW = Date.parse('2026-11-21T12:00:00Z');
const route = (revision: number | null, polyline: string): CachedRoute => ({
  sessionId: 'gd_1',
  revision,
  polyline,
  distanceMiles: 780,
  durationMinutes: 720,
});

describe('the guidance route store', () => {
  it('keeps each revision as its own item, answers a revision it wrote or read from memory, and reads one stored before revisions', async () => {
    const store = createGuidanceRouteStore(client, table);
    expect(await store.put('flt_r', 'veh_r', route(NOW, 'first'), NOW)).toBe(true);
    expect(await store.put('flt_r', 'veh_r', route(NOW + 60_000, 'rerouted'), NOW + 60_000)).toBe(true);
    // Another cycle re-routing in the same millisecond: refused, it takes the next revision.
    expect(await store.put('flt_r', 'veh_r', route(NOW, 'same millisecond'), NOW)).toBe(false);
    // Both revisions are there: a re-route never overwrites the route another session version follows.
    expect(await store.get('flt_r', 'veh_r', 'gd_1', NOW)).toMatchObject({
      polyline: 'first',
      revision: NOW,
    });
    expect(await store.get('flt_r', 'veh_r', 'gd_1', NOW + 60_000)).toMatchObject({ polyline: 'rerouted' });

    // A second container reads a revision once, then from memory (the item could even be gone).
    const other = createGuidanceRouteStore(client, table);
    expect(await other.get('flt_r', 'veh_r', 'gd_1', NOW)).toMatchObject({ polyline: 'first' });
    await client.send(
      new PutCommand({
        TableName: table,
        Item: { ...guidanceRouteKey('flt_r', 'veh_r', 'gd_1', NOW), route: route(NOW, 'overwritten') },
      }),
    );
    expect(await other.get('flt_r', 'veh_r', 'gd_1', NOW)).toMatchObject({ polyline: 'first' });

    // The route of a session stored before revisions: read every time (it was rewritten in place).
    await client.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...guidanceRouteKey('flt_r', 'veh_r', 'gd_1'),
          route: { ...route(null, 'legacy'), revision: undefined },
        },
      }),
    );
    expect(await other.get('flt_r', 'veh_r', 'gd_1', null)).toMatchObject({
      polyline: 'legacy',
      revision: null,
    });
    await client.send(
      new PutCommand({
        TableName: table,
        Item: { ...guidanceRouteKey('flt_r', 'veh_r', 'gd_1'), route: route(null, 'legacy, rerouted') },
      }),
    );
    expect(await other.get('flt_r', 'veh_r', 'gd_1', null)).toMatchObject({ polyline: 'legacy, rerouted' });
    expect(await other.get('flt_r', 'veh_r', 'gd_2', NOW)).toBeNull();
  });
});
