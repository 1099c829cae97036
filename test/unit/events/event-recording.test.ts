import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { EVENT_API_VERSION } from '#shared/events/domain/events.ts';
import type { AppendOutcome, EventStore } from '#shared/events/store/events.ts';
import {
  ANNOUNCE_LEASE_MS,
  ANNOUNCE_WAIT_CHECKS,
  createEventRecorder,
  type EventRecorderDeps,
  MAX_SEQUENCE_ATTEMPTS,
} from '#shared/events/usecases/event-recording.ts';
import { fixedClock } from '#shared/kernel/time.ts';

const NOW_MS = Date.parse('2026-11-21T12:00:00Z');
const FLEET = 'flt_01JD0000000000000000000001';

interface StoredGuard {
  sequence: number;
  announced: boolean;
  announcingUntil: number;
}

/** The events' items in memory, with the conditions the table's writes carry. */
function inMemoryEventStore() {
  const counters = new Map<string, number>();
  const events = new Map<string, EventEnvelope>();
  const partners = new Map<string, string | null>();
  const guards = new Map<string, StoredGuard>();
  const released: string[] = [];
  const store: EventStore = {
    async lastSequence(fleetId) {
      return counters.get(fleetId) ?? 0;
    },
    async append(event, previous, options = {}): Promise<AppendOutcome> {
      const guardKey = options.guard && `${event.fleet_id}|${options.guard.dedupeKey}`;
      if (guardKey && guards.has(guardKey)) return { kind: 'duplicate', cause: new Error('guard exists') };
      if ((counters.get(event.fleet_id) ?? 0) !== previous)
        return { kind: 'sequence_taken', cause: new Error('counter moved') };
      counters.set(event.fleet_id, event.sequence);
      events.set(`${event.fleet_id}|${event.sequence}`, event);
      partners.set(event.id, options.partnerId ?? null);
      if (guardKey && options.guard)
        guards.set(guardKey, {
          sequence: event.sequence,
          announced: false,
          announcingUntil: options.guard.leaseUntilMs,
        });
      return { kind: 'stored' };
    },
    async guardOf(fleetId, dedupeKey) {
      const guard = guards.get(`${fleetId}|${dedupeKey}`);
      return guard ? { sequence: guard.sequence, announced: guard.announced } : null;
    },
    async eventAt(fleetId, sequence) {
      return events.get(`${fleetId}|${sequence}`) ?? null;
    },
    async claimAnnouncement(fleetId, dedupeKey, nowMs, untilMs) {
      const guard = guards.get(`${fleetId}|${dedupeKey}`);
      if (!guard || guard.announced || guard.announcingUntil >= nowMs) return false;
      guard.announcingUntil = untilMs;
      return true;
    },
    async releaseAnnouncement(fleetId, dedupeKey) {
      const guard = guards.get(`${fleetId}|${dedupeKey}`);
      if (guard) guard.announcingUntil = 0;
      released.push(dedupeKey);
    },
    async markAnnounced(fleetId, dedupeKey) {
      const guard = guards.get(`${fleetId}|${dedupeKey}`);
      if (guard) guard.announced = true;
    },
  };
  return { store, counters, events, partners, guards, released };
}

function recorderWith(overrides: Partial<EventRecorderDeps> = {}) {
  const memory = inMemoryEventStore();
  const clock = fixedClock(NOW_MS);
  const announced: { id: string; partnerId: string | null }[] = [];
  const waits: number[] = [];
  const deps: EventRecorderDeps = {
    events: memory.store,
    externalRefOf: async (_fleetId, vehicleId) => (vehicleId === 'veh_named' ? 'TRUCK-7' : null),
    stage: 'prod',
    now: clock.now,
    announce: async (event, partnerId) => {
      announced.push({ id: event.id, partnerId });
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...overrides,
  };
  return { recorder: createEventRecorder(deps), memory, clock, announced, waits };
}

describe('recording an event', () => {
  it('numbers each fleet’s events from 1, builds the envelope and announces it once stored', async () => {
    // Arrange
    const { recorder, memory, announced } = recorderWith();

    // Act
    const first = await recorder.record(FLEET, 'vehicle.online', { n: 1 });
    const second = await recorder.record(FLEET, 'vehicle.offline', { n: 2 }, { partnerId: 'ptr_1' });
    const otherFleet = await recorder.record('flt_other', 'vehicle.online', {});

    // Assess
    expect(first).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'vehicle.online',
      api_version: EVENT_API_VERSION,
      sandbox: false,
      sequence: 1,
      occurred_at: '2026-11-21T12:00:00.000000Z',
      fleet_id: FLEET,
      data: { n: 1 },
    });
    expect(second.sequence).toBe(2);
    expect(otherFleet.sequence).toBe(1);
    expect(memory.partners.get(second.id)).toBe('ptr_1');
    expect(announced).toEqual([
      { id: first.id, partnerId: null },
      { id: second.id, partnerId: 'ptr_1' },
      { id: otherFleet.id, partnerId: null },
    ]);
  });

  it('marks a sandbox stage’s events as sandbox', async () => {
    const { recorder } = recorderWith({ stage: 'sandbox' });
    expect((await recorder.record(FLEET, 'vehicle.online', {})).sandbox).toBe(true);
  });

  it('reads the number again and retries when another event of the fleet took it first', async () => {
    // Arrange: the first read of the counter is stale, as when another writer got in between.
    const { recorder, memory, waits } = recorderWith();
    memory.counters.set(FLEET, 4);
    const lastSequence = memory.store.lastSequence;
    let reads = 0;
    memory.store.lastSequence = async (fleetId) => (++reads === 1 ? 3 : lastSequence(fleetId));

    // Act
    const event = await recorder.record(FLEET, 'vehicle.online', {});

    // Assess
    expect(event.sequence).toBe(5);
    expect(reads).toBe(2);
    expect(waits).toHaveLength(1);
  });

  it('gives up with the store’s error after so many lost races', async () => {
    const cause = new Error('counter moved');
    const { recorder, memory, announced } = recorderWith();
    let appends = 0;
    memory.store.append = async () => {
      appends += 1;
      return { kind: 'sequence_taken', cause };
    };

    await expect(recorder.record(FLEET, 'vehicle.online', {})).rejects.toBe(cause);
    expect(appends).toBe(MAX_SEQUENCE_ATTEMPTS);
    expect(announced).toEqual([]);
  });

  it('fills a vehicle event’s external_ref in after vehicle_id, keeping one its builder set', async () => {
    const { recorder } = recorderWith();

    const named = await recorder.record(FLEET, 'vehicle.fuel_low', { vehicle_id: 'veh_named', fuel: 18 });
    const unknown = await recorder.record(FLEET, 'vehicle.offline', { vehicle_id: 'veh_gone' });
    const own = await recorder.record(FLEET, 'vehicle.online', {
      vehicle_id: 'veh_named',
      external_ref: 'SET',
    });
    const noVehicle = await recorder.record(FLEET, 'fleet.provisioned', { fleet: { id: FLEET } });

    expect(Object.entries(named.data)).toEqual([
      ['vehicle_id', 'veh_named'],
      ['external_ref', 'TRUCK-7'],
      ['fuel', 18],
    ]);
    expect(unknown.data.external_ref).toBeNull();
    expect(own.data.external_ref).toBe('SET');
    expect(noVehicle.data).not.toHaveProperty('external_ref');
  });
});

describe('recording an occurrence under a dedupe key', () => {
  const options = { dedupeKey: 'vehicle.fuel_low:veh_1:1000' };

  it('stores the guard with the recorder holding the announcement lease, then marks it announced', async () => {
    const { recorder, memory } = recorderWith();

    const event = await recorder.record(FLEET, 'vehicle.fuel_low', {}, options);

    expect(memory.guards.get(`${FLEET}|${options.dedupeKey}`)).toEqual({
      sequence: event.sequence,
      announced: true,
      announcingUntil: NOW_MS + ANNOUNCE_LEASE_MS,
    });
  });

  it('returns the first event for the same key, announced once and burning no number', async () => {
    const { recorder, announced } = recorderWith();

    const first = await recorder.record(FLEET, 'vehicle.fuel_low', { n: 1 }, options);
    const again = await recorder.record(FLEET, 'vehicle.fuel_low', { n: 1 }, options);
    const other = await recorder.record(FLEET, 'vehicle.fuel_low', {}, { dedupeKey: 'other' });

    expect(again).toEqual(first);
    expect(announced.map((a) => a.id)).toEqual([first.id, other.id]);
    expect(other.sequence).toBe(first.sequence + 1);
  });

  it('gives the lease back when the fan-out fails, and the retry announces the stored event once', async () => {
    // Arrange
    let failNext = true;
    const announced: string[] = [];
    const { recorder, memory } = recorderWith({
      announce: async (event) => {
        if (failNext) {
          failNext = false;
          throw new Error('deliveries queue unavailable');
        }
        announced.push(event.id);
      },
    });

    // Act
    await expect(recorder.record(FLEET, 'vehicle.offline', {}, options)).rejects.toThrow('unavailable');
    const released = [...memory.released];
    const retried = await recorder.record(FLEET, 'vehicle.offline', {}, options);
    await recorder.record(FLEET, 'vehicle.offline', {}, options);

    // Assess
    expect(released).toEqual([options.dedupeKey]);
    expect(retried.sequence).toBe(1);
    expect(announced).toEqual([retried.id]);
    expect(memory.guards.get(`${FLEET}|${options.dedupeKey}`)?.announced).toBe(true);
  });

  it('waits for another caller holding the lease, then asks for a retry rather than announce beside it', async () => {
    // Arrange: an earlier record stored the event and still holds the lease.
    const { recorder, memory, announced, waits } = recorderWith();
    memory.counters.set(FLEET, 1);
    const stored: EventEnvelope = {
      id: 'evt_earlier',
      type: 'vehicle.offline',
      api_version: EVENT_API_VERSION,
      sandbox: false,
      sequence: 1,
      occurred_at: '2026-11-21T11:59:59.000000Z',
      fleet_id: FLEET,
      data: {},
    };
    memory.events.set(`${FLEET}|1`, stored);
    memory.guards.set(`${FLEET}|${options.dedupeKey}`, {
      sequence: 1,
      announced: false,
      announcingUntil: NOW_MS + 1_000,
    });

    // Act / Assess
    await expect(recorder.record(FLEET, 'vehicle.offline', {}, options)).rejects.toThrow(
      `event ${options.dedupeKey} is being announced elsewhere; retry`,
    );
    expect(waits).toEqual(Array.from({ length: ANNOUNCE_WAIT_CHECKS }, () => 100));
    expect(announced).toEqual([]);
  });

  it('takes over an announcement whose lease ran out (its recorder died) and announces the stored event', async () => {
    // Arrange
    const { recorder, memory, announced, clock } = recorderWith();
    const first = await recorder.record(FLEET, 'vehicle.offline', {}, options);
    const guard = memory.guards.get(`${FLEET}|${options.dedupeKey}`);
    if (!guard) throw new Error('no guard stored');
    guard.announced = false;
    guard.announcingUntil = NOW_MS + ANNOUNCE_LEASE_MS;
    announced.length = 0;
    clock.advance(ANNOUNCE_LEASE_MS + 1);

    // Act
    const again = await recorder.record(FLEET, 'vehicle.offline', {}, options);

    // Assess
    expect(again).toEqual(first);
    expect(announced.map((a) => a.id)).toEqual([first.id]);
    expect(guard).toEqual({ sequence: 1, announced: true, announcingUntil: clock.now() + ANNOUNCE_LEASE_MS });
  });
});
