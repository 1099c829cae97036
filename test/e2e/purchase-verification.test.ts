import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { eventEnvelopeProblems } from '../support/published-events.ts';
import { type Breadcrumb, guidanceClient, type Point, type Truck } from './support-guidance.ts';
import { ASYNC_EFFECT_TIMEOUT_MS } from './support-waits.ts';

/**
 * Card purchases checked against the truck over HTTP: POST /v1/fuelings stores each verdict on the
 * fueling, a flagged one is in GET /v1/events as `fueling.flagged`, and a truck's buffered
 * breadcrumbs, uploaded after the card was reported, re-check an unverified purchase once.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const guidance = guidanceClient(prod, company);

const MIN = 60_000;
/** One degree of latitude is 69.09 miles on the haversine sphere. */
const MILE_DEG = 1 / 69.09;
/** Where the card says the purchase was: a truck stop's lot in Dallas. */
const PUMPS: Point = { latitude: 32.7767, longitude: -96.797 };
const milesNorth = (miles: number): Point => ({
  latitude: PUMPS.latitude + miles * MILE_DEG,
  longitude: PUMPS.longitude,
});
const iso = (ms: number) => new Date(ms).toISOString();

interface Verification {
  status: 'verified' | 'unverified' | 'flagged';
  reasons: { code: string; detail: string }[];
  checked_at: string;
}

/** A truck with a 100-gallon tank. */
const newTruck = () => guidance.newTruck({ tank_size_gallons: 100, estimated_mpg: 6.5 });

/** POSTs one purchase at the pumps at `fueledAtMs`; returns its fueling as GET /v1/fuelings lists it. */
async function purchase(truck: Truck, fueledAtMs: number, gallons: number) {
  const response = await prod.post('/v1/fuelings', {
    ...company,
    idempotencyKey: randomUUID(),
    body: {
      fuelings: [
        {
          vehicle_id: truck.id,
          fueled_at: iso(fueledAtMs),
          gallons,
          price_usd_per_gallon: 3.599,
          ...PUMPS,
          card_transaction_ref: `CARD-${randomUUID()}`,
        },
      ],
    },
  });
  expect(response.status, response.text).toBe(200);
  expect(response.json.results[0], response.text).toMatchObject({ status: 'accepted' });
  return fuelingOf(truck, response.json.results[0].id);
}

async function fuelingOf(truck: Truck, id: string) {
  const listed = await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: truck.id } });
  expect(listed.status, listed.text).toBe(200);
  const fueling = listed.json.data.find((f: { id: string }) => f.id === id);
  expect(fueling, listed.text).toBeDefined();
  return fueling as { id: string; verification: Verification | null };
}

/** GETs the fueling every 200 ms until its verdict is `status` (the worker works off a queue). */
async function verdictBecomes(truck: Truck, id: string, status: Verification['status']) {
  const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
  for (;;) {
    const fueling = await fuelingOf(truck, id);
    if (fueling.verification?.status === status) return fueling.verification;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${status}: ${JSON.stringify(fueling.verification)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** GETs the truck's fuelings every 200 ms until the worker has recorded a detected fill. */
async function detectedFillOf(truck: Truck) {
  const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
  for (;;) {
    const listed = await prod.get('/v1/fuelings', {
      ...company,
      query: { vehicle_id: truck.id, source: 'detected' },
    });
    expect(listed.status, listed.text).toBe(200);
    if (listed.json.data.length > 0) return listed.json.data[0];
    if (Date.now() > deadline) throw new Error(`timed out waiting for a detected fill: ${listed.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The fleet's `fueling.flagged` events about one fueling, from the event feed (every page). */
async function flaggedEventsOf(fuelingId: string) {
  const found: { type: string; data: Record<string, unknown> }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const listed = await prod.get('/v1/events', {
      ...company,
      query: { type: 'fueling.flagged', limit: 100, ...(cursor ? { cursor } : {}) },
    });
    expect(listed.status, listed.text).toBe(200);
    for (const event of listed.json.data) {
      expect(eventEnvelopeProblems(event)).toEqual([]);
      if (event.data.fueling_id === fuelingId) found.push(event);
    }
    cursor = listed.json.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return found;
}

/** Breadcrumbs every 5 min over [fromMs, toMs] at `where(ms)`, with the level `fuel(ms)` when given. */
function crumbs(
  fromMs: number,
  toMs: number,
  where: (ms: number) => Point,
  fuel?: (ms: number) => number,
): Breadcrumb[] {
  const out: Breadcrumb[] = [];
  for (let ms = fromMs; ms <= toMs; ms += 5 * MIN) {
    out.push({
      ...where(ms),
      recorded_at: iso(ms),
      ...(fuel ? { fuel_level_percent: fuel(ms) } : {}),
    });
  }
  return out;
}

describe('each card purchase is checked against the truck', () => {
  it('flags a purchase 600 miles from the truck, and fueling.flagged says why', async () => {
    const truck = await newTruck();
    const fueledAtMs = Date.now() - 20 * MIN;
    // The truck spent the half hour around the purchase 600 miles north of the pumps.
    await guidance.drive(
      truck,
      crumbs(fueledAtMs - 30 * MIN, fueledAtMs + 15 * MIN, () => milesNorth(600)),
    );
    const fueling = await purchase(truck, fueledAtMs, 80);
    expect(fueling.verification?.status).toBe('flagged');
    const away = fueling.verification?.reasons.find((r) => r.code === 'away_from_station');
    // The card's position, or the catalog station it was placed at (within 0.25 mi of it).
    expect(away?.detail).toMatch(/^The truck was 600(\.\d)? mi from (the station|the purchase's position), /);
    const [event, ...more] = await flaggedEventsOf(fueling.id);
    expect(more).toEqual([]);
    expect(event?.data).toMatchObject({
      fueling_id: fueling.id,
      vehicle_id: truck.id,
      external_ref: truck.ref,
      gallons: 80,
      verification: fueling.verification,
    });
  });

  it('flags 180 gallons into a 100-gallon tank', async () => {
    const truck = await newTruck();
    const fueledAtMs = Date.now() - 20 * MIN;
    await guidance.drive(
      truck,
      crumbs(fueledAtMs - 15 * MIN, fueledAtMs + 10 * MIN, () => PUMPS),
    );
    const fueling = await purchase(truck, fueledAtMs, 180);
    expect(fueling.verification?.status).toBe('flagged');
    expect(fueling.verification?.reasons.map((r) => r.code)).toEqual(['exceeds_tank_size', 'at_station']);
    expect(fueling.verification?.reasons[0]?.detail).toBe("180 gal is more than the vehicle's 100 gal tank.");
    expect(await flaggedEventsOf(fueling.id)).toHaveLength(1);
  });

  it('leaves a purchase with no breadcrumbs near it unverified, announcing nothing', async () => {
    const truck = await newTruck();
    const fueling = await purchase(truck, Date.now() - 20 * MIN, 80);
    expect(fueling.verification).toEqual({
      status: 'unverified',
      reasons: [
        {
          code: 'no_breadcrumbs_near_time',
          detail: 'The vehicle reported no breadcrumb within 30 min of the purchase.',
        },
        {
          code: 'tank_not_checked',
          detail:
            '80 gal fits the 100 gal tank; no fuel level within 60 min before the purchase, so the room in it is unknown.',
        },
        {
          code: 'no_fuel_levels',
          detail: 'The vehicle reported no fuel level within 60 min of the purchase.',
        },
      ],
      checked_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    expect(await flaggedEventsOf(fueling.id)).toEqual([]);
  });
});

describe('late breadcrumbs re-check an unverified purchase once', () => {
  it('the truck’s buffered upload puts it at the pumps with its level rising: verified, silently', async () => {
    const truck = await newTruck();
    const fueledAtMs = Date.now() - 3 * 60 * MIN;
    const posted = await purchase(truck, fueledAtMs, 60);
    expect(posted.verification?.status).toBe('unverified');
    // What the truck buffered: at the pumps from 20 min before to 10 min after, filling 20 → 80 %,
    // then on its way north, through the end of the purchase's hour.
    await guidance.drive(truck, [
      ...crumbs(
        fueledAtMs - 20 * MIN,
        fueledAtMs + 10 * MIN,
        () => PUMPS,
        (ms) => (ms < fueledAtMs - 5 * MIN ? 20 : 80),
      ),
      ...crumbs(
        fueledAtMs + 15 * MIN,
        fueledAtMs + 65 * MIN,
        (ms) => milesNorth((ms - fueledAtMs) / MIN),
        () => 78,
      ),
    ]);
    const verification = await verdictBecomes(truck, posted.id, 'verified');
    expect(verification.reasons.map((r) => r.code)).toEqual(['at_station', 'level_rose']);
    expect(verification.checked_at > (posted.verification?.checked_at ?? '')).toBe(true);
    expect(await flaggedEventsOf(posted.id)).toEqual([]);
  });

  it('the buffered upload puts the truck 600 miles away: flagged, with one fueling.flagged', async () => {
    const truck = await newTruck();
    const fueledAtMs = Date.now() - 3 * 60 * MIN;
    const posted = await purchase(truck, fueledAtMs, 60);
    expect(posted.verification?.status).toBe('unverified');
    await guidance.drive(
      truck,
      crumbs(fueledAtMs - 40 * MIN, fueledAtMs + 65 * MIN, () => milesNorth(600)),
    );
    const verification = await verdictBecomes(truck, posted.id, 'flagged');
    expect(verification.reasons.map((r) => r.code)).toContain('away_from_station');
    // Later breadcrumbs re-check nothing again: parked 610 miles north from 70 to 95 min after the
    // purchase, filling 30 → 85 % (a fill of its own, far from the pumps and past the window), then
    // on its way. The worker's cycle over them is done once it has recorded that detected fill.
    await guidance.drive(truck, [
      ...crumbs(
        fueledAtMs + 70 * MIN,
        fueledAtMs + 95 * MIN,
        () => milesNorth(610),
        (ms) => (ms < fueledAtMs + 85 * MIN ? 30 : 85),
      ),
      ...crumbs(
        fueledAtMs + 100 * MIN,
        fueledAtMs + 110 * MIN,
        (ms) => milesNorth(610 + (ms - fueledAtMs - 95 * MIN) / MIN),
        () => 84,
      ),
    ]);
    await detectedFillOf(truck);
    const events = await flaggedEventsOf(posted.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.verification).toEqual(verification);
    expect((await fuelingOf(truck, posted.id)).verification).toEqual(verification);
  });
});
