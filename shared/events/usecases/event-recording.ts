import { newId } from '#shared/kernel/ids.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import type { Stage } from '#shared/platform/config.ts';
import type { EventEnvelope } from '../domain/envelope.ts';
import { lacksExternalRef, withExternalRef } from '../domain/event-vehicle-ref.ts';
import { EVENT_API_VERSION, type EventType } from '../domain/events.ts';
import type { EventStore } from '../store/events.ts';

/** How long a recorder may take to fan an event out before another may do it instead. */
export const ANNOUNCE_LEASE_MS = 30_000;
/**
 * A caller that finds the announcement in progress checks back this often, this many times (about
 * a second: a live announcer is done by then; a dead one's lease is better left to a later retry).
 */
const ANNOUNCE_WAIT_MS = 100;
export const ANNOUNCE_WAIT_CHECKS = 10;

/** Events of one fleet rarely race; many concurrent writers still all get through. */
export const MAX_SEQUENCE_ATTEMPTS = 60;

export interface EventOptions {
  /** The partner whose partner-level endpoints also receive it (fleet.provisioned). */
  partnerId?: string | null;
  /**
   * Names this occurrence (e.g. `vehicle.fuel_low:veh_…:1763769600000`): a second record with the
   * same key returns the first event instead of a new one. Workers that may run twice on the same
   * input (a redelivered queue message) record through it, so receivers see each occurrence once.
   */
  dedupeKey?: string;
}

export interface EventRecorder {
  record(
    fleetId: string,
    type: EventType,
    data: Record<string, unknown>,
    options?: EventOptions,
  ): Promise<EventEnvelope>;
}

export interface EventRecorderDeps {
  events: EventStore;
  /** The external_ref of a vehicle, null when it has none or is gone (shared/vehicles/store/vehicle-refs.ts). */
  externalRefOf: (fleetId: string, vehicleId: string) => Promise<string | null>;
  stage: Stage;
  now: () => number;
  /** Runs after the event is stored: the fan-out to the subscribed webhook endpoints. */
  announce?: (event: EventEnvelope, partnerId: string | null) => Promise<unknown>;
  /** Waits between attempts; a timer unless a test steps through them. */
  sleep?: (ms: number) => Promise<void>;
}

export function buildEvent(
  stage: Stage,
  fleetId: string,
  sequence: number,
  type: EventType,
  data: Record<string, unknown>,
  nowMs: number,
): EventEnvelope {
  return {
    id: newId('event', nowMs),
    type,
    api_version: EVENT_API_VERSION,
    sandbox: stage === 'sandbox',
    sequence,
    occurred_at: formatTimestamp(nowMs),
    fleet_id: fleetId,
    data,
  };
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The one way features record events: numbers the event in its fleet's sequence, stores it once
 * per dedupe key and announces it (the composition root, shared/webhooks/wiring/webhooks.ts, passes the
 * fan-out). An event about a vehicle gets the vehicle's `external_ref` here when its builder did
 * not set it, so every vehicle event carries it whichever feature recorded it.
 */
export function createEventRecorder(deps: EventRecorderDeps): EventRecorder {
  const { events, stage, now } = deps;
  const announce = deps.announce ?? (async () => {});
  const sleep = deps.sleep ?? timer;

  const named = async (fleetId: string, data: Record<string, unknown>) => {
    if (!lacksExternalRef(data)) return data;
    const vehicleId = data.vehicle_id;
    return withExternalRef(
      data,
      typeof vehicleId === 'string' ? await deps.externalRefOf(fleetId, vehicleId) : null,
    );
  };

  /**
   * The event an earlier record with this dedupe key stored. If that record stopped between
   * storing and announcing it (the fan-out failed, the function died), it is announced now: a
   * receiver may then get a delivery twice, with the same event id, which it de-duplicates; it
   * never gets none. While another caller holds the announcement lease, this one waits for it.
   */
  async function recorded(
    fleetId: string,
    dedupeKey: string,
    partnerId: string | null,
  ): Promise<EventEnvelope | null> {
    for (let check = 0; check < ANNOUNCE_WAIT_CHECKS; check++) {
      const guard = await events.guardOf(fleetId, dedupeKey);
      if (!guard) return null;
      const event = await events.eventAt(fleetId, guard.sequence);
      if (!event || guard.announced) return event;
      const nowMs = now();
      if (await events.claimAnnouncement(fleetId, dedupeKey, nowMs, nowMs + ANNOUNCE_LEASE_MS)) {
        await announceAndMark(event, dedupeKey, partnerId);
        return event;
      }
      await sleep(ANNOUNCE_WAIT_MS);
    }
    // The other caller is still at it (or died holding the lease): the caller retries later.
    throw new Error(`event ${dedupeKey} is being announced elsewhere; retry`);
  }

  async function announceAndMark(event: EventEnvelope, dedupeKey: string, partnerId: string | null) {
    try {
      await announce(event, partnerId);
    } catch (error) {
      // Give the lease back at once, so the retry does not wait for it to run out.
      await events.releaseAnnouncement(event.fleet_id, dedupeKey).catch(() => undefined);
      throw error;
    }
    await events.markAnnounced(event.fleet_id, dedupeKey);
  }

  return {
    async record(fleetId, type, builtData, options = {}) {
      const data = await named(fleetId, builtData);
      const partnerId = options.partnerId ?? null;
      const { dedupeKey } = options;
      for (let attempt = 1; ; attempt++) {
        const previous = await events.lastSequence(fleetId);
        const event = buildEvent(stage, fleetId, previous + 1, type, data, now());
        const outcome = await events.append(event, previous, {
          partnerId,
          // The recorder that stores it holds the lease to announce it.
          ...(dedupeKey
            ? { guard: { dedupeKey, leaseUntilMs: Date.parse(event.occurred_at) + ANNOUNCE_LEASE_MS } }
            : {}),
        });
        if (outcome.kind === 'stored') {
          if (dedupeKey) await announceAndMark(event, dedupeKey, partnerId);
          else await announce(event, partnerId);
          return event;
        }
        if (outcome.kind === 'duplicate' && dedupeKey) {
          const first = await recorded(fleetId, dedupeKey, partnerId);
          if (first) return first;
        }
        // Another event of this fleet took the number first (or the guard went between the write
        // and the read): read again and retry.
        if (attempt >= MAX_SEQUENCE_ATTEMPTS) throw outcome.cause;
        await sleep(Math.random() * 5 * Math.min(attempt, 10));
      }
    },
  };
}
