import { describe, expect, it } from 'vitest';
import { clockTime, feedItems } from '../../../../web/sandbox/event-feed.ts';

const vehicles = [
  { vehicle_id: 'veh_a', name: 'Sleeper 1' },
  { vehicle_id: 'veh_b', name: 'Day cab 2' },
];

describe('feedItems', () => {
  it('lists newest first, names the truck, and marks fleet-wide events', () => {
    // Arrange
    const events = [
      { id: 'evt_1', type: 'guidance.updated', occurred_at: '2026-11-23T10:00:00.000Z', vehicle_id: 'veh_a' },
      { id: 'evt_3', type: 'fleet.updated', occurred_at: '2026-11-23T10:02:00.000Z', vehicle_id: null },
      { id: 'evt_2', type: 'fueling.detected', occurred_at: '2026-11-23T10:01:30.000Z', vehicle_id: 'veh_b' },
    ];

    // Act
    const items = feedItems(events, vehicles);

    // Assess
    expect(items.map((item) => [item.id, item.time, item.type, item.subject])).toEqual([
      ['evt_3', '10:02:00 UTC', 'fleet.updated', 'fleet'],
      ['evt_2', '10:01:30 UTC', 'fueling.detected', 'Day cab 2'],
      ['evt_1', '10:00:00 UTC', 'guidance.updated', 'Sleeper 1'],
    ]);
    expect(items[0]?.timestamp).toBe('2026-11-23T10:02:00.000Z');
  });

  it('shows the id of a truck the snapshot no longer has', () => {
    const [item] = feedItems(
      [{ id: 'evt_9', type: 'vehicle.offline', occurred_at: '2026-11-23T10:00:00Z', vehicle_id: 'veh_gone' }],
      vehicles,
    );
    expect(item?.subject).toBe('veh_gone');
  });

  it('keeps at most `limit` items, the newest', () => {
    const events = Array.from({ length: 30 }, (_, index) => ({
      id: `evt_${String(index).padStart(2, '0')}`,
      type: 'guidance.updated',
      occurred_at: `2026-11-23T10:${String(index).padStart(2, '0')}:00Z`,
      vehicle_id: 'veh_a',
    }));
    const items = feedItems(events, vehicles, 5);
    expect(items.map((item) => item.id)).toEqual(['evt_29', 'evt_28', 'evt_27', 'evt_26', 'evt_25']);
  });
});

describe('clockTime', () => {
  it('shows the UTC time of day and leaves an unparseable value as sent', () => {
    expect(clockTime('2026-11-23T23:05:09.123Z')).toBe('23:05:09 UTC');
    expect(clockTime('soon')).toBe('soon');
  });
});
