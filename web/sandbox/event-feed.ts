import type { RecentEvent, SimulatedVehicle } from './snapshot.ts';

export interface FeedItem {
  id: string;
  /** `14:05:09 UTC`: events of a sandbox run sit within hours of each other; the date would be noise. */
  time: string;
  /** The `datetime` attribute of the item's <time>. */
  timestamp: string;
  type: string;
  /** The truck's name, `fleet` for fleet-wide events, or the raw id of a truck no longer in the snapshot. */
  subject: string;
}

/**
 * The live feed: newest first, at most `limit` items, each naming its truck. The API already sends
 * the fleet's recent events; ordering here keeps the feed stable whatever order they arrive in.
 */
export function feedItems(
  events: readonly RecentEvent[],
  vehicles: readonly Pick<SimulatedVehicle, 'vehicle_id' | 'name'>[],
  limit = 25,
): FeedItem[] {
  const names = new Map(vehicles.map((vehicle) => [vehicle.vehicle_id, vehicle.name]));
  return [...events]
    .sort((a, b) => b.occurred_at.localeCompare(a.occurred_at) || b.id.localeCompare(a.id))
    .slice(0, limit)
    .map((event) => ({
      id: event.id,
      time: clockTime(event.occurred_at),
      timestamp: event.occurred_at,
      type: event.type,
      subject: event.vehicle_id === null ? 'fleet' : (names.get(event.vehicle_id) ?? event.vehicle_id),
    }));
}

/** `2026-11-23T14:05:09.123Z` → `14:05:09 UTC`; an unparseable value is shown as sent. */
export function clockTime(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  return `${date.toISOString().slice(11, 19)} UTC`;
}
