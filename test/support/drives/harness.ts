/**
 * Feeds simulated drives (generator.ts) through the real use cases against DynamoDB Local: each
 * POST /v1/locations through the ingest use case, then the guidance worker's cycle for every
 * vehicle it queued, as the queue would run it; guidance started through its use case. The clock is
 * the moment of each POST (processing time); the breadcrumbs carry their own recorded_at. Prices
 * move a few cents an hour of that clock. Collects per truck what a fleet would see: the stop shown
 * when guidance started, every event, and what GET guidance showed after each delivery.
 */

import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { eventRecorderOn } from '#shared/events/wiring/events.ts';
import { recordFuelings } from '#shared/fuelings/usecases/fuelings.ts';
import { purchaseCheckDeps } from '#shared/fuelings/wiring/fueling-batches.ts';
import { createFuelingRecordDeps } from '#shared/fuelings/wiring/fuelings.ts';
import { StationIndex } from '#shared/geo/station-index.ts';
import { buildSyntheticCatalog, syntheticCatalogVersion } from '#shared/geo/synthetic-catalog.ts';
import type { GuidanceStop } from '#shared/guidance/domain/session.ts';
import { startGuidance } from '#shared/guidance/usecases/guidance.ts';
import { createGuidancePlanningDeps } from '#shared/guidance/wiring/guidance-planning.ts';
import { newId } from '#shared/kernel/ids.ts';
import { type ChainDiscounts, type Station, stationPrice } from '#shared/stations/domain/station.ts';
import { stationSources } from '#shared/stations/wiring/stations.ts';
import type { VehicleUpdateMessage } from '#shared/tracking/domain/messages.ts';
import { ingestLocations } from '#shared/tracking/usecases/ingest.ts';
import { processVehicleUpdate } from '#shared/tracking/usecases/vehicle-updates.ts';
import { ingestDeps } from '#shared/tracking/wiring/tracking.ts';
import { createVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import { tableStores, vehicleStore } from '#shared/wiring/table-stores.ts';
import { companyFleet, discountsOnlyProgram } from '../fleets.ts';
import type { TestInfrastructure } from '../infrastructure.ts';
import { guidancePrincipal } from '../principals.ts';
import {
  type DeliveryPost,
  type DriveCrumb,
  type DriveFill,
  type DriveGroup,
  type DriveSpec,
  deliveryPosts,
  otherStationFor,
  parkedCrumb,
  scriptDriveWithFills,
} from './generator.ts';

/** A stop as GET guidance showed it. */
export interface SeenStop {
  id: string;
  stationId: string;
  latitude: number;
  longitude: number;
}

/**
 * A stop with the prices guidance published for it: what a fill that followed it, or passed it
 * over, is judged against (docs/fuel-economics.md). Absent price-basis fields read as pump prices.
 */
export interface PricedStop extends SeenStop {
  price: number;
  discount: number;
  netPrice: number;
  stateTax: number | null;
  effectivePrice: number | null;
  counterfactual: { pumpPrice: number; netPrice: number; stationCount: number } | null;
}

/** A card purchase as the fleet's card feed reports it (POST /v1/fuelings), with its truth. */
export interface CardPurchase {
  fuelingId: string | null;
  stationId: string;
  state: string;
  chain: string;
  fueledAtMs: number;
  gallons: number;
  price: number;
  discount: number;
  /** When the card feed posted it. */
  postedAtMs: number;
}

/** What GET guidance showed after a delivery, and where the truck truly was by then. */
export interface Sighting {
  postedAtMs: number;
  active: boolean;
  first: SeenStop | null;
  /** The fuel level the session's plan worked from (percent of the tank); null before any plan. */
  fuelPercent: number | null;
  /** How many fills detection had recorded for the truck by then (fueling.recorded). */
  fillsDetected: number;
  /** Stations the session's skipped stops are at. */
  skippedStationIds: string[];
  /** Every stop of the active session (stops[0] first), with the prices published for it. */
  stops: PricedStop[];
  /** The newest breadcrumb the API had for the truck (by recorded_at). */
  latest: DriveCrumb;
}

export interface DriveOutcome {
  spec: DriveSpec;
  fleetId: string;
  vehicleId: string;
  guidanceId: string;
  /** stops[0] of POST guidance's answer: the stop the driver was shown, and drives to. */
  shownAtStart: SeenStop | null;
  /** Every stop of POST guidance's answer, with the prices published for it. */
  stopsAtStart: PricedStop[];
  /** The other station of the corridor a driver who does not follow fuels at (null: none). */
  otherStation: SeenStop | null;
  /** The fills the truck truly made, and the card purchases posted for them (when asked for). */
  fills: DriveFill[];
  purchases: CardPurchase[];
  startMs: number;
  crumbs: DriveCrumb[];
  /** This truck's events, in the order they were recorded. */
  events: EventEnvelope[];
  sightings: Sighting[];
  /** Why worker cycles for this truck failed every receive (their messages dead-lettered). */
  deadLetters: string[];
}

/** The price of every station moves by up to this, up or down, each hour of the clock. */
const PRICE_DRIFT_USD = 0.04;
const HOUR_MS = 3_600_000;
const MIN_ARRIVAL_FUEL_PERCENT = 15;
/** How often the queue hands a message to the worker before it goes to the dead-letter queue. */
const RECEIVES = 3;

export interface MutableClock {
  now(): number;
  set(ms: number): void;
}

/**
 * The synthetic catalog with its prices moved a few cents each hour of the clock: a new catalog
 * version an hour, as an imported price feed would be.
 */
function driftingCatalog(now: () => number) {
  let base: Station[] | undefined;
  const indexes = new Map<number, StationIndex>();
  return {
    async current() {
      const hour = Math.floor(now() / HOUR_MS);
      let index = indexes.get(hour);
      if (!index) {
        base ??= buildSyntheticCatalog(now());
        const priced = base.map((station) => ({
          ...station,
          dieselPriceUsdPerGallon:
            Math.round((station.dieselPriceUsdPerGallon + drift(station.id, hour)) * 1000) / 1000,
          priceUpdatedAtMs: hour * HOUR_MS,
        }));
        index = new StationIndex(`${syntheticCatalogVersion()}-h${hour}`, priced);
        if (indexes.size > 8) indexes.delete(indexes.keys().next().value as number);
        indexes.set(hour, index);
      }
      return index;
    },
  };
}

/** Deterministic in [-PRICE_DRIFT_USD, PRICE_DRIFT_USD] per station and hour. */
function drift(stationId: string, hour: number): number {
  let hash = 2166136261 ^ hour;
  for (let i = 0; i < stationId.length; i++) hash = Math.imul(hash ^ stationId.charCodeAt(i), 16777619);
  return (((hash >>> 0) / 4294967295) * 2 - 1) * PRICE_DRIFT_USD;
}

/** The stop with the prices guidance published for it. */
export const pricedStop = (stop: GuidanceStop): PricedStop => ({
  id: stop.id,
  stationId: stop.stationId,
  latitude: stop.latitude,
  longitude: stop.longitude,
  price: stop.price,
  discount: stop.discount,
  netPrice: stop.netPrice,
  stateTax: stop.stateTax ?? null,
  effectivePrice: stop.effectivePrice ?? null,
  counterfactual: stop.counterfactual ?? null,
});

/** Card purchases: the fleet's discounts by chain, and how long after leaving the pumps the feed posts. */
export interface CardPurchaseOptions {
  discounts: ChainDiscounts;
  /** Minutes from leaving the pumps to the card feed's POST /v1/fuelings. */
  feedLagMinutes: number;
}

export function createDriveSimulation(infra: TestInfrastructure, clock: MutableClock) {
  const events: EventEnvelope[] = [];
  const recorder = eventRecorderOn(infra.client, infra.config.tableName, 'prod', clock.now, async (event) => {
    events.push(event);
  });
  const deps = {
    ...createGuidancePlanningDeps(infra, { events: recorder }),
    catalog: driftingCatalog(clock.now),
  };
  const ingest = ingestDeps(infra);
  const vehicles = vehicleStore(infra);
  const fuelingDeps = {
    ...createFuelingRecordDeps(infra, recorder),
    vehicles,
    catalog: deps.catalog,
    fuelTaxes: stationSources(infra).fuelTaxes,
    ...purchaseCheckDeps(infra),
    fleets: tableStores(infra).fleets,
    now: clock.now,
  };
  /** Per vehicle, why its messages went to the dead-letter queue. */
  const deadLetters = new Map<string, string[]>();

  /** One POST /v1/locations, then the worker's cycle for each vehicle it queued. */
  async function post(fleetId: string, items: readonly { vehicleId: string; crumb: DriveCrumb }[]) {
    const response = await ingestLocations(
      ingest,
      fleetId,
      items.map(({ vehicleId, crumb }) => ({
        vehicle_id: vehicleId,
        latitude: crumb.latitude,
        longitude: crumb.longitude,
        recorded_at: new Date(crumb.recordedAtMs).toISOString(),
        fuel_level_percent: crumb.fuelLevelPercent,
        speed_mph: crumb.speedMph,
      })),
    );
    if (response.rejected > 0) throw new Error(`ingest rejected: ${JSON.stringify(response).slice(0, 500)}`);
    const queued = new Map<string, VehicleUpdateMessage>();
    for (const message of infra.sent.vehicleUpdates.take()) queued.set(message.vehicleId, message);
    for (const message of queued.values()) await cycle(message);
  }

  /**
   * The worker's cycle as the queue runs it: a failed message is received again, up to
   * {@link RECEIVES} times, then goes to the dead-letter queue (counted, not thrown: the drive goes on).
   */
  async function cycle(message: VehicleUpdateMessage) {
    for (let receive = 1; ; receive++) {
      try {
        await processVehicleUpdate(deps, message);
        return;
      } catch (error) {
        if (receive < RECEIVES) continue;
        const failures = deadLetters.get(message.vehicleId) ?? [];
        failures.push(error instanceof Error ? error.message : String(error));
        deadLetters.set(message.vehicleId, failures);
        return;
      }
    }
  }

  /** What GET guidance showed: stops[0] of an active session, and what the plan worked from. */
  async function firstStop(
    fleetId: string,
    vehicleId: string,
  ): Promise<Omit<Sighting, 'postedAtMs' | 'latest' | 'fillsDetected'>> {
    const { session } = await deps.tracking.get(fleetId, vehicleId);
    const stop = session?.status === 'active' ? session.stops[0] : undefined;
    return {
      active: session?.status === 'active',
      fuelPercent: session?.fuel?.percent ?? null,
      skippedStationIds: session?.skipped.map((s) => s.stationId) ?? [],
      stops: session?.status === 'active' ? session.stops.map(pricedStop) : [],
      first: stop
        ? { id: stop.id, stationId: stop.stationId, latitude: stop.latitude, longitude: stop.longitude }
        : null,
    };
  }

  /**
   * The card purchase of a fill, as the feed posts it `feedLagMinutes` after the truck left the
   * pumps: the station the catalog has at the pumps, its posted price then, the fleet's discount
   * at its chain, the gallons the truck took.
   */
  async function purchaseOf(fill: DriveFill, cards: CardPurchaseOptions): Promise<CardPurchase | null> {
    const index = await deps.catalog.current();
    const station = index.nearby(fill.latitude, fill.longitude, 0.05, 1)[0]?.station;
    if (!station) return null;
    const { price, discount } = stationPrice(station, cards.discounts);
    return {
      fuelingId: null,
      stationId: station.id,
      state: station.state,
      chain: station.chain,
      fueledAtMs: fill.leftAtMs,
      gallons: fill.gallons,
      price,
      discount,
      postedAtMs: fill.leftAtMs + cards.feedLagMinutes * 60_000,
    };
  }

  /** POST /v1/fuelings through its use case: every purchase must be accepted. */
  async function postPurchase(fleetId: string, vehicleId: string, purchase: CardPurchase) {
    const answer = await recordFuelings(fuelingDeps, fleetId, [
      {
        vehicle_id: vehicleId,
        station_id: purchase.stationId,
        fueled_at: new Date(purchase.fueledAtMs).toISOString(),
        gallons: purchase.gallons,
        price_usd_per_gallon: purchase.price,
        discount_usd_per_gallon: purchase.discount,
      },
    ]);
    const [result] = answer.results;
    if (result?.status !== 'accepted') throw new Error(`card purchase refused: ${JSON.stringify(answer)}`);
    purchase.fuelingId = result.id;
  }

  /**
   * Drives one group (one fleet, one provider) from `startMs`: each truck reports once, parked,
   * guidance starts for each, then the drives' breadcrumbs arrive as the group's delivery sends them.
   * With `cards`, the fleet has those discounts, drivers who do not follow fuel at another station
   * of the corridor, and each fill's card purchase is posted when the card feed sends it.
   */
  async function runGroup(
    group: DriveGroup,
    startMs: number,
    seed: number,
    cards: CardPurchaseOptions | null = null,
  ): Promise<DriveOutcome[]> {
    const fleetId = newId('fleet');
    if (cards) {
      await tableStores(infra).fleets.putCompanyFleet(
        companyFleet(fleetId, { fuelProgram: discountsOnlyProgram(cards.discounts) }),
      );
    }
    const trucks = [];
    for (const spec of group.drives) {
      clock.set(startMs - 5 * 60_000);
      const { vehicle } = await createVehicle({ vehicles, clock }, fleetId, {
        external_ref: `SIM-${spec.index}`,
        tank_size_gallons: spec.tankGallons,
        estimated_mpg: spec.mpg,
      });
      trucks.push({ spec, vehicleId: vehicle.id });
    }
    // Parked and reporting a minute before guidance starts, in one batch.
    clock.set(startMs - 30_000);
    const parked = new Map(trucks.map((t) => [t.vehicleId, parkedCrumb(t.spec, startMs - 60_000)]));
    await post(
      fleetId,
      trucks.map((t) => ({ vehicleId: t.vehicleId, crumb: parked.get(t.vehicleId) as DriveCrumb })),
    );

    clock.set(startMs);
    const outcomes: DriveOutcome[] = [];
    for (const { spec, vehicleId } of trucks) {
      const answer = await startGuidance(deps, guidancePrincipal(fleetId), fleetId, vehicleId, {
        destination: { latitude: spec.to.latitude, longitude: spec.to.longitude, name: spec.to.name },
        min_arrival_fuel_percent: MIN_ARRIVAL_FUEL_PERCENT,
      });
      const stop = answer.status === 'active' ? answer.stops[0] : undefined;
      const shownAtStart = stop
        ? { id: stop.id, stationId: stop.stationId, latitude: stop.latitude, longitude: stop.longitude }
        : null;
      const index = cards ? await deps.catalog.current() : null;
      const other = index
        ? otherStationFor(
            spec,
            shownAtStart,
            (point, radiusMiles) =>
              index.nearby(point.latitude, point.longitude, radiusMiles, 200).map(({ station }) => station),
            new Set(answer.status === 'active' ? answer.stops.map((s) => s.stationId) : []),
          )
        : null;
      const otherStation = other
        ? { id: other.id, stationId: other.id, latitude: other.latitude, longitude: other.longitude }
        : null;
      const scripted = scriptDriveWithFills(spec, shownAtStart, startMs, otherStation);
      outcomes.push({
        spec,
        fleetId,
        vehicleId,
        guidanceId: answer.id,
        shownAtStart,
        stopsAtStart: answer.status === 'active' ? answer.stops.map(pricedStop) : [],
        otherStation,
        fills: scripted.fills,
        purchases: [],
        startMs,
        crumbs: scripted.crumbs,
        events: [],
        sightings: [],
        deadLetters: [],
      });
    }

    const byDrive = new Map(outcomes.map((o) => [o.spec.index, o]));
    const posts: DeliveryPost[] = deliveryPosts(
      group,
      new Map(outcomes.map((o) => [o.spec.index, o.crumbs])),
      startMs,
      seed,
    );
    const latest = new Map(outcomes.map((o) => [o.spec.index, parked.get(o.vehicleId) as DriveCrumb]));
    // The card feed's posts, each placed among the breadcrumb posts by when it is sent.
    const pending: { outcome: DriveOutcome; fill: DriveFill }[] = cards
      ? outcomes
          .flatMap((outcome) => outcome.fills.map((fill) => ({ outcome, fill })))
          .sort((a, b) => a.fill.leftAtMs - b.fill.leftAtMs)
      : [];
    const postPurchasesDueBy = async (atMs: number) => {
      while (cards && pending.length > 0) {
        const next = pending[0] as (typeof pending)[number];
        if (next.fill.leftAtMs + cards.feedLagMinutes * 60_000 > atMs) return;
        pending.shift();
        clock.set(next.fill.leftAtMs + cards.feedLagMinutes * 60_000);
        const purchase = await purchaseOf(next.fill, cards);
        if (!purchase) continue;
        await postPurchase(fleetId, next.outcome.vehicleId, purchase);
        next.outcome.purchases.push(purchase);
      }
    };
    for (const { postedAtMs, items } of posts) {
      await postPurchasesDueBy(postedAtMs);
      clock.set(postedAtMs);
      await post(
        fleetId,
        items.map(({ drive, crumb }) => ({
          vehicleId: (byDrive.get(drive) as DriveOutcome).vehicleId,
          crumb,
        })),
      );
      for (const drive of new Set(items.map((item) => item.drive))) {
        const outcome = byDrive.get(drive) as DriveOutcome;
        for (const { crumb } of items.filter((item) => item.drive === drive)) {
          if (crumb.recordedAtMs > (latest.get(drive) as DriveCrumb).recordedAtMs) latest.set(drive, crumb);
        }
        outcome.sightings.push({
          postedAtMs,
          ...(await firstStop(fleetId, outcome.vehicleId)),
          fillsDetected: events.filter(
            (e) =>
              e.type === 'fueling.recorded' &&
              e.fleet_id === fleetId &&
              e.data.vehicle_id === outcome.vehicleId,
          ).length,
          latest: latest.get(drive) as DriveCrumb,
        });
      }
    }
    await postPurchasesDueBy(Number.POSITIVE_INFINITY);
    for (const outcome of outcomes) {
      outcome.events = events.filter(
        (e) => e.fleet_id === fleetId && e.data.vehicle_id === outcome.vehicleId,
      );
    }
    // The group's events are read: drop them, so a 200-drive run keeps only what it still needs.
    for (let i = events.length - 1; i >= 0; i--) if (events[i]?.fleet_id === fleetId) events.splice(i, 1);
    return outcomes;
  }

  /** POST /v1/fuelings through its use case with any items (the benches' hostile purchases): its answer. */
  const postFuelings = (fleetId: string, items: readonly unknown[]) =>
    recordFuelings(fuelingDeps, fleetId, items);

  return { runGroup, deps, postFuelings };
}
