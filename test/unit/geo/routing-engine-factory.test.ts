import { CalculateRoutesCommand, GeoRoutesClient } from '@aws-sdk/client-geo-routes';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createRoutingEngine } from '#shared/geo/routing-engine-factory.ts';
import { place } from './support.ts';

// Every GeoRoutesClient, including the one the factory builds, answers from this mock.
const geo = mockClient(GeoRoutesClient);

const request = { origin: place('dallas-tx'), destination: place('oklahoma-city-ok') };

beforeEach(() => {
  geo.reset();
});

afterAll(() => {
  geo.restore();
});

describe('createRoutingEngine', () => {
  it.each([
    ['unset', {}],
    ['empty', { ROUTING_ENGINE: '' }],
    ['embedded', { ROUTING_ENGINE: 'embedded' }],
  ])('uses the embedded engine when ROUTING_ENGINE is %s', async (_label, env) => {
    // Act
    const route = await createRoutingEngine(env).route(request);

    // Assess
    expect(route.engine.name).toBe('embedded');
    expect(geo.calls()).toHaveLength(0);
  });

  it("uses Amazon Location, in the Lambda's region with a bounded client, when ROUTING_ENGINE is amazon-location", async () => {
    // Prepare
    let region: string | undefined;
    let maxAttempts: number | undefined;
    geo.on(CalculateRoutesCommand).callsFake(async (_input, getClient) => {
      region = await getClient().config.region();
      maxAttempts = await getClient().config.maxAttempts();
      return {
        Routes: [
          {
            Legs: [
              {
                Type: 'Vehicle',
                Geometry: {
                  LineString: [
                    [request.origin.longitude, request.origin.latitude],
                    [request.destination.longitude, request.destination.latitude],
                  ],
                },
                VehicleLegDetails: { Summary: { Overview: { Distance: 331_500, Duration: 11_700 } } },
              },
            ],
            Summary: { Distance: 331_500, Duration: 11_700 },
          },
        ],
      };
    });

    // Act
    const route = await createRoutingEngine({
      ROUTING_ENGINE: 'amazon-location',
      AWS_REGION: 'us-west-2',
    }).route(request);

    // Assess
    expect(route.engine.name).toBe('amazon-location');
    expect(route.distanceMiles).toBe(206);
    expect(region).toBe('us-west-2');
    // The bounded client of geoRoutesClientConfig, not the SDK's default of 3 attempts.
    expect(maxAttempts).toBe(2);
  });

  it.each(['amazon', 'Embedded', 'here'])('refuses ROUTING_ENGINE=%s as a configuration error', (value) => {
    // Act, Assess
    expect(() => createRoutingEngine({ ROUTING_ENGINE: value })).toThrow(
      new Error(
        `ROUTING_ENGINE must be one of 'embedded', 'amazon-location' (or unset for 'embedded'); got '${value}'.`,
      ),
    );
  });
});
