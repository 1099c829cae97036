import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalTarget, loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { webhookEnvelopeProblems } from '../support/published-events.ts';
import { expectProblem } from './problem.ts';
import {
  asApiTimestamp,
  eventually,
  type ReceivedDelivery,
  startReceiver,
  TIMESTAMP,
} from './support-guidance.ts';
import { driveTripToFuelStop, type TripJson, tripClient } from './support-trips.ts';

/**
 * The whole loop over HTTP, where trips and fuelings meet: a trip with auto_optimize is started,
 * the truck drives to the trip's fuel stop and fills there (a tank-level rise the worker detects
 * and matches to the trip stop), the driver's card reports the same fill, the trip is completed,
 * and the savings report shows the stop as followed with savings that follow its definitions.
 */
const credentials = loadCredentials();
const prod = api(credentials.base_url);
const company = { key: credentials.keys.company_live };
const trips = tripClient(prod, company);

describe.runIf(isLocalTarget())('a trip from start to the savings report (local stack)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpointId: string;
  const events = () => receiver.received.map((r: ReceivedDelivery) => JSON.parse(r.body));
  const eventsOf = (type: string, vehicleId: string) =>
    events().filter((e) => e.type === type && e.data?.vehicle_id === vehicleId);

  beforeAll(async () => {
    receiver = await startReceiver();
    const created = await prod.post('/v1/webhooks', {
      ...company,
      body: { url: receiver.url, event_types: ['*'] },
    });
    expect(created.status, created.text).toBe(201);
    endpointId = created.json.id;
  });
  afterAll(async () => {
    if (endpointId) await prod.delete(`/v1/webhooks/${endpointId}`, company);
    await receiver?.close();
  });

  it('started, followed to its fuel stop, fuelled (detected, then by card: one fueling), matched, completed, reported as followed', {
    timeout: 240_000,
  }, async () => {
    // Started: trip.started, and a guidance session that follows the trip to its fuel stop.
    const drive = await driveTripToFuelStop(prod, company, { fillToPercent: 95 });
    const { truck, trip, fuelStop, session } = drive;
    expect(trip).toMatchObject({ status: 'active', auto_optimize: true, guidance_id: session.id });
    expect(fuelStop).toMatchObject({
      id: expect.stringMatching(/^tsp_/),
      type: 'fuel',
      system_managed: true,
    });
    expect(session.stops[0]?.station.id).toBe(fuelStop.fuel.station.id);
    const started = await eventually('trip.started', () =>
      events().find((e) => e.type === 'trip.started' && e.data.trip_id === trip.id),
    );
    expect(started.data).toMatchObject({ vehicle_id: truck.id, status: 'active' });

    // Followed: the GPS arrival at the pumps names the trip and its fuel stop.
    const arrived = await eventually('vehicle.stop_arrived at the fuel stop', () =>
      eventsOf('vehicle.stop_arrived', truck.id).at(0),
    );
    expect(arrived.data).toMatchObject({
      trip_id: trip.id,
      stop_id: fuelStop.id,
      guidance_id: session.id,
    });

    // Fuelled, detected: the rise at the pumps is one detected fueling at the station.
    const recorded = await eventually('fueling.recorded', () => eventsOf('fueling.recorded', truck.id).at(0));
    const detectedId: string = recorded.data.fueling_id;
    expect(recorded.data).toMatchObject({ source: 'detected', vehicle_id: truck.id });
    // The gauge rests at 95 % (±1 of slosh) after the pump; before it read what the truck arrived with.
    const { fuel_level_before_percent: before, fuel_level_after_percent: after } = recorded.data;
    expect(Math.abs(after - 95)).toBeLessThanOrEqual(1);
    const arrivalGauge = drive.crumbs.find((c) => Date.parse(c.recorded_at) === drive.arrivedAtMs)
      ?.fuel_level_percent as number;
    expect(Math.abs(before - arrivalGauge)).toBeLessThanOrEqual(5);
    // The tank holds 150 gal: the rise in gallons.
    expect(Math.abs(recorded.data.gallons - ((after - before) / 100) * 150)).toBeLessThanOrEqual(0.1);
    expect(recorded.data.fueled_at >= asApiTimestamp(new Date(drive.arrivedAtMs).toISOString())).toBe(true);
    expect(recorded.data.fueled_at < asApiTimestamp(new Date(drive.departedAtMs).toISOString())).toBe(true);

    // Matched: to the trip's fuel stop, at the price the trip recommended.
    const stopNet: number = fuelStop.fuel.net_price_usd_per_gallon;
    const matched = await eventually('fueling.matched of the detection', () =>
      eventsOf('fueling.matched', truck.id).at(0),
    );
    expect(matched.data).toMatchObject({
      fueling_id: detectedId,
      vehicle_id: truck.id,
      external_ref: truck.ref,
      guidance_id: session.id,
      trip_id: trip.id,
      stop_id: fuelStop.id,
      station_id: fuelStop.fuel.station.id,
      gallons: recorded.data.gallons,
      // A detection has no receipt: it is priced at the stop it matched.
      net_price_usd_per_gallon: stopNet,
      recommended_net_price_usd_per_gallon: stopNet,
    });

    // The same fill by card, paid inside five minutes after the gauge settled: the pump read 4 cents
    // over the catalog's posted price and the fleet's card took 12 cents more off than the catalog
    // knew, so it paid 8 cents under the recommended net price (savings are then not zero merely
    // because the benchmark is the station's own posted price).
    const paidNet = Math.round((stopNet - 0.08) * 1000) / 1000;
    const gallons = Math.round(recorded.data.gallons);
    const card = {
      vehicle_id: truck.id,
      fueled_at: new Date(Date.parse(recorded.data.fueled_at) + 5 * 60_000).toISOString(),
      gallons,
      price_usd_per_gallon: Math.round((fuelStop.fuel.price_usd_per_gallon + 0.04) * 1000) / 1000,
      discount_usd_per_gallon: Math.round((fuelStop.fuel.discount_usd_per_gallon + 0.12) * 1000) / 1000,
      latitude: fuelStop.latitude,
      longitude: fuelStop.longitude,
      card_transaction_ref: `CARD-${randomUUID()}`,
      merchant_name: fuelStop.fuel.station.name,
    };
    const posted = await prod.post('/v1/fuelings', {
      ...company,
      idempotencyKey: randomUUID(),
      body: { fuelings: [card] },
    });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.json.results[0]).toEqual({
      index: 0,
      status: 'accepted',
      id: expect.stringMatching(/^fuel_/),
    });
    const reportedId: string = posted.json.results[0].id;
    expect(reportedId).not.toBe(detectedId);

    // One fueling: the reported one, linked to the detection, carrying its match.
    const listed = await prod.get('/v1/fuelings', { ...company, query: { vehicle_id: truck.id } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.data).toHaveLength(1);
    const fueling = listed.json.data[0];
    expect(fueling).toMatchObject({
      id: reportedId,
      source: 'reported',
      gallons,
      card_transaction_ref: card.card_transaction_ref,
      net_price_usd_per_gallon: paidNet,
      fuel_tax_treatment: 'ifta',
      counterfactual: expect.any(Object),
      linked_fueling_id: detectedId,
      detected_gallons: recorded.data.gallons,
      station: expect.objectContaining({ id: fuelStop.fuel.station.id }),
      match: {
        guidance_id: session.id,
        trip_id: trip.id,
        stop_id: fuelStop.id,
        recommended_net_price_usd_per_gallon: stopNet,
      },
      missed_savings_usd: 0,
    });
    const detections = await prod.get('/v1/fuelings', {
      ...company,
      query: { vehicle_id: truck.id, source: 'detected' },
    });
    expect(detections.json.data.map((f: TripJson) => [f.id, f.linked_fueling_id])).toEqual([
      [detectedId, reportedId],
    ]);

    // Completed: trip.completed, and the session ends with it.
    const completed = await trips.move(trip.id, 'complete');
    expect(completed).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(TIMESTAMP) });
    const visited = completed.stops.find((s: TripJson) => s.id === fuelStop.id);
    expect(visited.arrived_at).toBe(arrived.data.arrived_at);
    expectProblem(await prod.get(`/v1/vehicles/${truck.id}/guidance`, company), 404, 'no_active_guidance');
    await eventually('trip.completed and the session cleared', () => {
      const done = events().find((e) => e.type === 'trip.completed' && e.data.trip_id === trip.id);
      const cleared = eventsOf('guidance.updated', truck.id).find(
        (e) => e.data.guidance_id === session.id && e.data.reason === 'trip_completed',
      );
      return done && cleared ? true : undefined;
    });
    // The card merged into a fill already announced: fueling.matched only once for it.
    expect(eventsOf('fueling.matched', truck.id)).toHaveLength(1);
    // Every delivery of the loop (trip, guidance, visit and fueling events) is its type's webhook
    // as openapi.json publishes it, and says its type in X-Service-Event-Type too.
    for (const delivery of receiver.received) {
      const event = JSON.parse(delivery.body);
      expect(webhookEnvelopeProblems(event), delivery.body).toEqual([]);
      expect(delivery.headers['x-service-event-type']).toBe(event.type);
    }
    expect([...new Set(events().map((e) => e.type))]).toEqual(
      expect.arrayContaining(['trip.started', 'vehicle.stop_arrived', 'fueling.matched', 'trip.completed']),
    );

    // The report: one fill, the trip's stop due and followed, savings against the counterfactual.
    // Yesterday through today (UTC): the drive began hours ago and may straddle midnight.
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const report = await prod.get('/v1/reports/savings', {
      ...company,
      query: { vehicle_id: truck.id, from: dayOf(Date.now() - 86_400_000), to: dayOf(Date.now()) },
    });
    expect(report.status, report.text).toBe(200);
    expect(report.json.vehicles).toHaveLength(1);
    const { vehicle_id, external_ref, adherence_rate, ...row } = report.json.vehicles[0];
    expect({ vehicle_id, external_ref, adherence_rate }).toEqual({
      vehicle_id: truck.id,
      external_ref: truck.ref,
      adherence_rate: 1,
    });
    expect(row).toEqual(report.json.totals);
    expect(report.json.adherence_rate).toBe(1);
    const spend = Math.round(paidNet * gallons * 100) / 100;
    const cf = fueling.counterfactual;
    const effective: number = fueling.effective_price_usd_per_gallon;
    expect(report.json.totals).toMatchObject({
      fuelings: 1,
      gallons,
      spend_usd: spend,
      recommended_stops: 1,
      followed_stops: 1,
      missed_savings_usd: 0,
      card_savings_usd: fueling.card_savings_usd,
      routing_savings_usd: fueling.routing_savings_usd,
      // The report's saving is the fill's routing saving; the card is beside it.
      savings_usd: fueling.routing_savings_usd,
    });
    // The split, redone by hand from the fill's own published prices (within a cent per figure).
    expect(fueling.card_savings_usd).toBeCloseTo(
      (cf.pump_price_usd_per_gallon - cf.net_price_usd_per_gallon) * gallons,
      1,
    );
    expect(fueling.routing_savings_usd).toBeCloseTo((cf.net_price_usd_per_gallon - effective) * gallons, 1);
    expect(report.json.totals.savings_usd).toBeCloseTo(
      report.json.totals.counterfactual_spend_usd - report.json.totals.effective_spend_usd,
      2,
    );
    expect(report.json.totals.savings_usd).not.toBe(0);
    expect(report.json.totals.savings_usd_per_gallon).toBeCloseTo(
      report.json.totals.savings_usd / gallons,
      3,
    );
  });
});
