import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CalculateRoutesCommand,
  type CalculateRoutesCommandOutput,
  GeoRoutesClient,
} from '@aws-sdk/client-geo-routes';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { STANDARD_TRUCK } from '#shared/fleets/domain/truck-profile.ts';
import { createAmazonLocationRouter } from '#shared/geo/amazon-location-router.ts';
import { decodeRoutePolyline, MAX_POINT_SPACING_MILES } from '#shared/geo/polyline.ts';
import { RoutingUnreachableError } from '#shared/geo/routing-errors.ts';
import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { apiErrorForDomainError } from '#shared/platform/domain-errors.ts';
import { place } from './support.ts';

const fixtures = join(import.meta.dirname, '../../fixtures/amazon-location');
const recorded = (name: string) =>
  ({
    $metadata: { httpStatusCode: 200, requestId: 'recorded' },
    ...JSON.parse(readFileSync(join(fixtures, name), 'utf8')),
  }) as CalculateRoutesCommandOutput;

const geo = mockClient(GeoRoutesClient);
const router = createAmazonLocationRouter({ client: new GeoRoutesClient({ region: 'us-east-1' }) });

const chicago = place('chicago-il');
const saltLakeCity = place('salt-lake-city-ut');
const pittsburgh = place('pittsburgh-pa');
const harrisburg = place('harrisburg-pa');

beforeEach(() => {
  geo.reset();
});

afterAll(() => {
  geo.restore();
});

describe('a recorded long route: Chicago → Denver → Salt Lake City, two legs, ~940 positions', () => {
  const answer = () => {
    geo.on(CalculateRoutesCommand).resolves(recorded('long-route-chicago-denver-salt-lake-city.json'));
    return router.route({ origin: chicago, destination: saltLakeCity });
  };

  it('adds the legs’ road miles and durations: 1,003.4 + 520.9 mi, 1,038 + 548.3 min', async () => {
    // Act
    const route = await answer();

    // Assess: legs of 1,614,816 m / 62,280 s and 838,309 m / 32,899 s.
    expect(route.distanceMiles).toBe(1_524.3);
    expect(route.durationMinutes).toBe(1_586.3);
    expect(route.legs.map((leg) => [leg.miles, leg.durationMinutes, leg.startMiles])).toEqual([
      [1_003.4, 1_038, 0],
      [520.9, 548.3, 1_003.4],
    ]);
    expect(route.legs.map((leg) => [leg.from, leg.to])).toEqual([
      ['origin', 'Denver, CO'],
      [expect.stringMatching(/^39\.\d{4}, -104\.\d{4}$/), 'destination'],
    ]);
    expect(route.legs.every((leg) => !leg.milesEstimated)).toBe(true);
  });

  it('keeps every recorded position, densified to 5 miles, road miles rising to the distance', async () => {
    // Act
    const route = await answer();

    // Assess
    const fixture = recorded('long-route-chicago-denver-salt-lake-city.json');
    const positions = (fixture.Routes?.[0]?.Legs ?? []).reduce(
      (sum, leg) => sum + (leg.Geometry?.LineString?.length ?? 0),
      0,
    );
    expect(positions).toBeGreaterThan(900);
    // The legs share Denver's position, which the line keeps once.
    expect(route.points.length).toBeGreaterThanOrEqual(positions - 1);
    for (let i = 1; i < route.points.length; i++) {
      expect(
        haversineMiles(route.points[i - 1] as GeoPoint, route.points[i] as GeoPoint),
      ).toBeLessThanOrEqual(MAX_POINT_SPACING_MILES);
      expect(route.cumulativeMiles[i]).toBeGreaterThanOrEqual(route.cumulativeMiles[i - 1] ?? 0);
    }
    expect(route.cumulativeMiles.at(-1)).toBe(1_524.3);
    expect(decodeRoutePolyline(route.polyline)).toEqual(route.points);
  });
});

describe('leg notices', () => {
  it('refuses a route through a low clearance for a 13 ft 6 in truck, naming the limit', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(recorded('restricted-low-clearance.json'));

    // Act
    const error = await router
      .route({ origin: pittsburgh, destination: harrisburg, truck: STANDARD_TRUCK })
      .catch((caught: unknown) => caught);

    // Assess: MaxHeight 381 cm is 150 in.
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect(apiErrorForDomainError(error)).toMatchObject({
      code: 'routing_unreachable',
      status: 502,
      detail:
        'Amazon Location found no truck route between the origin and the destination that this truck may drive: ' +
        'its best route crosses a restriction for this truck, "Low clearance": height limit 12 ft 6 in, the truck ' +
        "is 13 ft 6 in. Check the truck profile's dimensions, weight and hazardous cargo.",
    });
  });

  it('names hazardous cargo restrictions in the API’s words, and a blocked road', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(recorded('restricted-hazardous-cargo-and-blocked-road.json'));

    // Act
    const error = await router
      .route({
        origin: pittsburgh,
        destination: harrisburg,
        truck: { ...STANDARD_TRUCK, hazardousCargo: ['flammable', 'explosive'] },
      })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect((error as Error).message).toContain(
      'crosses a restriction for this truck, "Hazardous goods restriction": closed to flammable, explosive cargo; ' +
        'a blocked road.',
    );
  });

  it('accepts a route whose notices are all Low impact', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(recorded('low-impact-notices.json'));

    // Act
    const route = await router.route({ origin: pittsburgh, destination: harrisburg });

    // Assess: 327,824 m.
    expect(route.distanceMiles).toBe(203.7);
    expect(route.legs[0]).toMatchObject({ road: 'I-76', from: 'origin', to: 'destination' });
  });

  it.each([
    ['ViolatedAvoidTunnel', 'High', 'an avoided tunnel'],
    ['ViolatedZoneRestriction', undefined, 'a restricted zone'],
    ['ViolatedTurnRestriction', 'High', 'a turn restriction'],
  ])('refuses %s (impact %s) as %s', async (code, impact, words) => {
    // Prepare: the low-clearance route with this notice instead.
    const answer = recorded('restricted-low-clearance.json');
    const details = answer.Routes?.[0]?.Legs?.[0]?.VehicleLegDetails;
    if (!details) throw new Error('fixture without vehicle leg details');
    details.Notices = [{ Code: code as never, Details: [], ...(impact ? { Impact: impact as never } : {}) }];
    geo.on(CalculateRoutesCommand).resolves(answer);

    // Act
    const error = await router
      .route({ origin: pittsburgh, destination: harrisburg })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect((error as Error).message).toContain(`its best route crosses ${words}.`);
  });

  it.each([
    ['ViolatedStartDirection', 'High'],
    ['PotentialViolatedVehicleRestrictionUsage', 'High'],
    ['ViolatedVehicleRestriction', 'Low'],
  ])('accepts %s (impact %s)', async (code, impact) => {
    // Prepare
    const answer = recorded('restricted-low-clearance.json');
    const details = answer.Routes?.[0]?.Legs?.[0]?.VehicleLegDetails;
    if (!details) throw new Error('fixture without vehicle leg details');
    details.Notices = [{ Code: code as never, Details: [], Impact: impact as never }];
    geo.on(CalculateRoutesCommand).resolves(answer);

    // Act
    const route = await router.route({ origin: pittsburgh, destination: harrisburg });

    // Assess
    expect(route.distanceMiles).toBe(203.7);
  });
});

describe('no route', () => {
  it('answers an empty Routes list with routing_unreachable naming the notices', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(recorded('no-route.json'));

    // Act
    const error = await router
      .route({ origin: chicago, destination: { latitude: 21.3069, longitude: -157.8583 } })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect(apiErrorForDomainError(error)).toMatchObject({
      code: 'routing_unreachable',
      detail: 'Amazon Location found no truck route between the origin and the destination (Other).',
    });
  });
});
