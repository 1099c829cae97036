import {
  AccessDeniedException,
  CalculateRoutesCommand,
  type CalculateRoutesCommandOutput,
  GeoRoutesClient,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-geo-routes';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AMAZON_LOCATION_DATA_VERSION,
  createAmazonLocationRouter,
  METERS_PER_MILE,
} from '#shared/geo/amazon-location-router.ts';
import { DEFAULT_TRUCK } from '#shared/geo/amazon-location-truck.ts';
import { decodeRoutePolyline, MAX_POINT_SPACING_MILES } from '#shared/geo/polyline.ts';
import {
  RouteCapacityError,
  RouteTimeoutError,
  RoutingUnreachableError,
} from '#shared/geo/routing-errors.ts';
import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { apiErrorForDomainError } from '#shared/platform/domain-errors.ts';

const geo = mockClient(GeoRoutesClient);
const client = new GeoRoutesClient({ region: 'us-east-1' });
const router = createAmazonLocationRouter({ client });

const dallas = { latitude: 32.7767, longitude: -96.797 };
const wichita = { latitude: 37.6872, longitude: -97.3301 };

// Dallas → Oklahoma City → Wichita up I-35 as two vehicle legs (a route through a waypoint),
// [longitude, latitude] shape points at the towns it passes, road distances as the service
// reports them: 331,500 m (206.0 mi) and 259,100 m (161.0 mi).
const toOklahomaCity = [
  [-96.797, 32.7767],
  [-97.1331, 33.2148],
  [-97.1336, 33.6259],
  [-97.1436, 34.1743],
  [-97.4395, 35.2226],
  [-97.5164, 35.4676],
];
const toWichita = [
  [-97.5164, 35.4676],
  [-97.4253, 35.8789],
  [-97.2878, 36.2895],
  [-97.2834, 36.8045],
  [-97.3717, 37.2653],
  [-97.3301, 37.6872],
];

function vehicleLeg(lineString: number[][], meters: number, seconds: number, arrivalName?: string) {
  const position = (index: number) => lineString.at(index);
  return {
    Type: 'Vehicle',
    TravelMode: 'Truck',
    Geometry: { LineString: lineString },
    VehicleLegDetails: {
      Departure: { Place: { Position: position(0) } },
      Arrival: { Place: { Position: position(-1), ...(arrivalName ? { Name: arrivalName } : {}) } },
      Summary: { Overview: { Distance: meters, Duration: seconds } },
      AfterTravelSteps: [],
      Incidents: [],
      Notices: [],
      PassThroughWaypoints: [],
      Spans: [],
      Tolls: [],
      TollSystems: [],
      TravelSteps: [],
      TruckRoadTypes: [],
      Zones: [],
    },
  };
}

function response(routes: unknown[]): CalculateRoutesCommandOutput {
  return {
    $metadata: { httpStatusCode: 200 },
    LegGeometryFormat: 'Simple',
    Notices: [],
    PricingBucket: 'Premium',
    Routes: routes,
  } as CalculateRoutesCommandOutput;
}

const twoLegs = response([
  {
    Legs: [
      vehicleLeg(toOklahomaCity, 331_500, 11_700, 'Oklahoma City, OK'),
      vehicleLeg(toWichita, 259_100, 8_460),
    ],
    MajorRoadLabels: [{ RouteNumber: { Value: 'I-35' } }],
    Summary: { Distance: 590_600, Duration: 20_160 },
  },
]);

beforeEach(() => {
  geo.reset();
});

afterAll(() => {
  geo.restore();
});

describe('Amazon Location router: the route it returns', () => {
  it('turns a two-leg CalculateRoutes answer into road miles, legs and duration', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(twoLegs);

    // Act
    const route = await router.route({ origin: dallas, destination: wichita });

    // Assess
    expect(route.distanceMiles).toBe(367);
    expect(route.distanceMiles).toBeCloseTo(590_600 / METERS_PER_MILE, 1);
    expect(route.durationMinutes).toBe(336);
    expect(route.legs).toEqual([
      {
        kind: 'interstate',
        road: 'vehicle',
        concurrent: [],
        from: 'origin',
        to: 'Oklahoma City, OK',
        miles: 206,
        durationMinutes: 195,
        startMiles: 0,
        milesEstimated: false,
      },
      {
        kind: 'interstate',
        road: 'vehicle',
        concurrent: [],
        from: '35.4676, -97.5164',
        to: 'destination',
        miles: 161,
        durationMinutes: 141,
        startMiles: 206,
        milesEstimated: false,
      },
    ]);
    expect(route.engine).toEqual({ name: 'amazon-location', dataVersion: AMAZON_LOCATION_DATA_VERSION });
  });

  it('densifies the legs to a point every 5 miles, with road miles per point ending at the distance', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(twoLegs);

    // Act
    const route = await router.route({ origin: dallas, destination: wichita });

    // Assess
    expect(route.points.length).toBeGreaterThan(367 / MAX_POINT_SPACING_MILES);
    expect(route.points).toHaveLength(route.cumulativeMiles.length);
    for (let i = 1; i < route.points.length; i++) {
      const a = route.points[i - 1] as GeoPoint;
      const b = route.points[i] as GeoPoint;
      expect(haversineMiles(a, b)).toBeLessThanOrEqual(MAX_POINT_SPACING_MILES);
      expect(route.cumulativeMiles[i]).toBeGreaterThan(route.cumulativeMiles[i - 1] ?? 0);
    }
    expect(route.points[0]).toEqual(dallas);
    expect(route.points.at(-1)).toEqual(wichita);
    expect(route.cumulativeMiles[0]).toBe(0);
    expect(route.cumulativeMiles.at(-1)).toBe(route.distanceMiles);
    // Oklahoma City, where the legs meet, sits at the first leg's road miles.
    const okc = route.points.findIndex((point) => point.latitude === 35.4676 && point.longitude === -97.5164);
    expect(route.cumulativeMiles[okc]).toBe(206);
  });

  it('encodes exactly its points as the precision-5 polyline', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(twoLegs);

    // Act
    const route = await router.route({ origin: dallas, destination: wichita });

    // Assess
    expect(decodeRoutePolyline(route.polyline)).toEqual(route.points);
  });

  it('names the one vehicle leg of an origin → destination route after its major roads', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(
      response([
        {
          Legs: [vehicleLeg([...toOklahomaCity, ...toWichita.slice(1)], 590_600, 20_160)],
          MajorRoadLabels: [
            { RouteNumber: { Value: 'I-35' } },
            { RoadName: { Value: 'Kansas Turnpike' } },
            { RouteNumber: { Value: 'I-35' } },
          ],
          Summary: { Distance: 590_600, Duration: 20_160 },
        },
      ]),
    );

    // Act
    const route = await router.route({ origin: dallas, destination: wichita });

    // Assess
    expect(route.legs).toHaveLength(1);
    expect(route.legs[0]).toMatchObject({
      kind: 'interstate',
      road: 'I-35',
      concurrent: ['Kansas Turnpike'],
      from: 'origin',
      to: 'destination',
      miles: 367,
    });
  });

  it('shares the route distance among legs that came back without a summary, flagged estimated', async () => {
    // Prepare
    const bare = vehicleLeg(toWichita, 0, 0);
    const { Summary: _omitted, ...details } = bare.VehicleLegDetails;
    geo.on(CalculateRoutesCommand).resolves(
      response([
        {
          Legs: [vehicleLeg(toOklahomaCity, 331_500, 11_700), { ...bare, VehicleLegDetails: details }],
          MajorRoadLabels: [],
          Summary: { Distance: 590_600, Duration: 20_160 },
        },
      ]),
    );

    // Act
    const route = await router.route({ origin: dallas, destination: wichita });

    // Assess
    expect(route.legs.map((leg) => [leg.miles, leg.milesEstimated])).toEqual([
      [206, false],
      [161, true],
    ]);
    expect(route.distanceMiles).toBe(367);
  });
});

describe('Amazon Location router: the request it sends', () => {
  it('asks for one truck route between [longitude, latitude] ends, with a class-8 tractor-trailer', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(twoLegs);

    // Act
    await router.route({ origin: dallas, destination: wichita });

    // Assess
    const [call] = geo.commandCalls(CalculateRoutesCommand);
    expect(call?.args[0].input).toEqual({
      Origin: [-96.797, 32.7767],
      Destination: [-97.3301, 37.6872],
      TravelMode: 'Truck',
      TravelModeOptions: {
        Truck: {
          TruckType: 'Tractor',
          GrossWeight: 36_287,
          Height: 411,
          Width: 259,
          Length: 2_134,
          AxleCount: 5,
          Trailer: { TrailerCount: 1 },
        },
      },
      LegGeometryFormat: 'Simple',
      LegAdditionalFeatures: ['Summary'],
    });
    expect((geo.call(0).args as unknown[])[1]).toEqual({ abortSignal: expect.any(AbortSignal) });
  });

  it.each([
    [340, 340],
    [0, 0],
    [-20, 340],
    [360, 0],
  ])('sends the truck’s heading %s° as the origin’s Heading (%s°)', async (heading, sent) => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(twoLegs);

    // Act
    await router.route({ origin: dallas, destination: wichita, originHeadingDegrees: heading });

    // Assess
    const [call] = geo.commandCalls(CalculateRoutesCommand);
    expect(call?.args[0].input.OriginOptions).toEqual({ Heading: sent });
  });

  it.each([null, undefined, Number.NaN])(
    'sends no origin options without a heading (%s)',
    async (heading) => {
      // Prepare
      geo.on(CalculateRoutesCommand).resolves(twoLegs);

      // Act
      await router.route({ origin: dallas, destination: wichita, originHeadingDegrees: heading });

      // Assess
      const [call] = geo.commandCalls(CalculateRoutesCommand);
      expect(call?.args[0].input).not.toHaveProperty('OriginOptions');
    },
  );

  it('sends the request’s truck in centimetres and kilograms, with its hazardous cargo', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(twoLegs);

    // Act: a 12 ft 4 in, 96 in wide, 48 ft straight job at 33,000 lb with fuel and chlorine.
    await router.route({
      origin: dallas,
      destination: wichita,
      truck: {
        heightInches: 148,
        widthInches: 96,
        lengthFeet: 48,
        grossWeightLbs: 33_000,
        axleCount: 3,
        hazardousCargo: ['flammable', 'poison_inhalation'],
      },
    });

    // Assess: 148 × 2.54 = 375.92, 96 × 2.54 = 243.84, 48 × 30.48 = 1,463.04,
    // 33,000 × 0.45359237 = 14,968.55.
    const [call] = geo.commandCalls(CalculateRoutesCommand);
    expect(call?.args[0].input.TravelModeOptions?.Truck).toEqual({
      TruckType: 'Tractor',
      GrossWeight: 14_969,
      Height: 376,
      Width: 244,
      Length: 1_463,
      AxleCount: 3,
      Trailer: { TrailerCount: 1 },
      HazardousCargos: ['Flammable', 'PoisonousInhalation'],
    });
  });

  it('sends the standard truck when the request names none', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(twoLegs);

    // Act
    await router.route({ origin: dallas, destination: wichita });

    // Assess
    const [call] = geo.commandCalls(CalculateRoutesCommand);
    expect(call?.args[0].input.TravelModeOptions?.Truck).toMatchObject({
      Height: DEFAULT_TRUCK.heightCm,
      GrossWeight: DEFAULT_TRUCK.grossWeightKg,
    });
    expect(call?.args[0].input.TravelModeOptions?.Truck).not.toHaveProperty('HazardousCargos');
  });

  it('refuses coordinates outside ±90 / ±180 before calling the service', async () => {
    // Act
    const error = await router
      .route({ origin: { latitude: 95, longitude: -97 }, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RangeError);
    expect(geo.calls()).toHaveLength(0);
  });
});

describe('Amazon Location router: failures', () => {
  it('gives up at the time budget with RouteTimeoutError and aborts the call', async () => {
    // Prepare: a service that never answers.
    geo.on(CalculateRoutesCommand).callsFake(() => new Promise(() => {}));
    const impatient = createAmazonLocationRouter({ client, timeBudgetMs: 20 });

    // Act
    const error = await impatient
      .route({ origin: dallas, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RouteTimeoutError);
    expect(error).toMatchObject({ budgetMs: 20 });
    expect(apiErrorForDomainError(error)).toMatchObject({ code: 'route_computation_timeout' });
    const options = (geo.call(0).args as unknown[])[1] as { abortSignal: AbortSignal };
    expect(options.abortSignal.aborted).toBe(true);
  });

  it('reads the SDK abandoning an aborted call as a timeout', async () => {
    // Prepare
    const aborted = Object.assign(new Error('Request aborted'), { name: 'AbortError' });
    geo.on(CalculateRoutesCommand).rejects(aborted);

    // Act
    const error = await router
      .route({ origin: dallas, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RouteTimeoutError);
  });

  it.each([
    [
      'ThrottlingException',
      new ThrottlingException({ message: 'Rate exceeded', Message: 'Rate exceeded', $metadata: {} }),
    ],
    [
      'ServiceQuotaExceededException',
      Object.assign(new Error('Quota exceeded'), { name: 'ServiceQuotaExceededException' }),
    ],
    [
      'any HTTP 429',
      Object.assign(new Error('Too Many Requests'), { name: 'Unknown', $metadata: { httpStatusCode: 429 } }),
    ],
  ])('answers %s with 503 route_capacity', async (_label, thrown) => {
    // Prepare
    geo.on(CalculateRoutesCommand).rejects(thrown);

    // Act
    const error = await router
      .route({ origin: dallas, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RouteCapacityError);
    expect(apiErrorForDomainError(error)).toMatchObject({
      code: 'route_capacity',
      status: 503,
      detail: 'Amazon Location Service is throttling route requests.',
    });
  });

  it('answers no route at all with RoutingUnreachableError', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).resolves(response([]));

    // Act
    const error = await router
      .route({ origin: dallas, destination: { latitude: 21.3069, longitude: -157.8583 } })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect(error).toMatchObject({ endpoint: 'destination' });
    expect(apiErrorForDomainError(error)).toMatchObject({ code: 'routing_unreachable' });
  });

  it('answers a position the service cannot match to a road with RoutingUnreachableError', async () => {
    // Prepare
    geo.on(CalculateRoutesCommand).rejects(
      new ValidationException({
        message: 'Origin could not be matched to the road network.',
        Message: 'Origin could not be matched to the road network.',
        Reason: 'Other',
        FieldList: [],
        $metadata: {},
      }),
    );

    // Act
    const error = await router
      .route({ origin: { latitude: 30, longitude: -140 }, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(RoutingUnreachableError);
    expect(error).toMatchObject({ endpoint: 'origin', point: { latitude: 30, longitude: -140 } });
  });

  it.each([
    [
      'a validation failure about the request itself',
      new ValidationException({
        message: "1 validation error detected: Value at 'travelMode' failed to satisfy constraint",
        Message: "1 validation error detected: Value at 'travelMode' failed to satisfy constraint",
        Reason: 'FieldValidationFailed',
        FieldList: [{ Name: 'TravelMode', Message: 'Member must satisfy enum value set' }],
        $metadata: {},
      }),
    ],
    [
      'access denied',
      new AccessDeniedException({ message: 'not authorized', Message: 'not authorized', $metadata: {} }),
    ],
  ])('rethrows %s unchanged', async (_label, thrown) => {
    // Prepare
    geo.on(CalculateRoutesCommand).rejects(thrown);

    // Act
    const error = await router
      .route({ origin: dallas, destination: wichita })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBe(thrown);
  });
});
