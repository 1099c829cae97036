import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from '../support/http-client.ts';
import { ASYNC_EFFECT_TIMEOUT_MS } from './support-waits.ts';

/**
 * Helpers of the guidance e2e tests: fresh trucks, breadcrumbs, polling the session while the
 * guidance worker catches up, and a loopback webhook receiver. HTTP only, so they work against a
 * deployed stage as well as the local stack.
 */

export interface Point {
  latitude: number;
  longitude: number;
}

export interface Breadcrumb extends Point {
  recorded_at: string;
  fuel_level_percent?: number;
  speed_mph?: number;
}

export interface Truck {
  id: string;
  ref: string;
}

/** The guidance object as the tests read it (fields of openapi.json `Guidance`). */
export interface GuidanceStop {
  id: string;
  station: {
    id: string;
    name: string;
    chain: string;
    latitude: number;
    longitude: number;
    address: string;
    state: string | null;
  };
  miles_ahead: number;
  detour_miles: number;
  gallons_to_buy: number | null;
  price_usd_per_gallon: number;
  discount_usd_per_gallon: number;
  net_price_usd_per_gallon: number;
  state_tax_usd_per_gallon: number | null;
  effective_price_usd_per_gallon: number;
  fuel_tax_treatment: 'ifta' | 'pump';
  price_is_stale: boolean;
  reason: string;
  state: 'recommended' | 'acknowledged';
  recommended_at: string;
  acknowledged_at: string | null;
}

export interface Guidance {
  id: string;
  vehicle_id: string;
  status: string;
  phase: string;
  destination: { latitude: number; longitude: number; name: string | null };
  min_arrival_fuel_percent: number;
  stops: GuidanceStop[];
  skipped_stops: {
    stop_id: string;
    station_id: string;
    name: string;
    reason: string | null;
    skipped_at: string;
  }[];
  plan_reason: string | null;
  remaining_miles: number | null;
  projected_arrival_fuel_percent: number | null;
  position: (Point & { recorded_at: string; freshness: string }) | null;
  fuel: { level_percent: number; source: string; reported_at: string; freshness: string } | null;
  fuel_level_percent: number | null;
  fuel_level_source: 'reported' | 'projected' | 'assumed' | null;
  fuel_level_as_of: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
  plan_updated_at: string | null;
}

/** The API's timestamp form: UTC with six fractional digits. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** An ISO time `seconds` ago, millisecond precision (what a telematics client sends). */
export const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

/** How the API echoes a time sent with millisecond precision: six fractional digits. */
export const asApiTimestamp = (iso: string) => iso.replace(/Z$/, '000Z');

export function guidanceClient(client: ApiClient, auth: { key: string; fleet?: string }) {
  const path = (vehicle: string) => `/v1/vehicles/${vehicle}/guidance`;

  /** A truck of its own for each test (unique external_ref), with fuel data unless told otherwise. */
  async function newTruck(fields: Record<string, unknown> = { tank_size_gallons: 150, estimated_mpg: 6.5 }) {
    const ref = `GD-${randomUUID().slice(0, 8)}`;
    const response = await client.post('/v1/vehicles', { ...auth, body: { external_ref: ref, ...fields } });
    expect(response.status, response.text).toBe(201);
    return { id: response.json.id as string, ref } satisfies Truck;
  }

  /** Sends breadcrumbs for one truck; every row must be accepted. */
  async function drive(truck: Truck, crumbs: readonly Breadcrumb[]): Promise<void> {
    const response = await client.post('/v1/locations', {
      ...auth,
      body: { locations: crumbs.map((crumb) => ({ vehicle_id: truck.id, ...crumb })) },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json, response.text).toMatchObject({ accepted: crumbs.length, rejected: 0 });
  }

  async function start(vehicle: string, body: unknown): Promise<ApiResponse<Guidance>> {
    const response = await client.post<Guidance>(path(vehicle), { ...auth, body });
    expect(response.status, response.text).toBe(201);
    return response;
  }

  /** The raw GET: a guidance object or a problem. */
  const read = (vehicle: string) => client.get(path(vehicle), auth);

  /** The active session, which must exist. */
  async function current(vehicle: string): Promise<Guidance> {
    const response = await read(vehicle);
    expect(response.status, response.text).toBe(200);
    return response.json as Guidance;
  }

  /**
   * GETs the session every 100 ms until `done` holds (the guidance worker works off a queue, so a
   * breadcrumb or a skip shows a moment later), or fails after ASYNC_EFFECT_TIMEOUT_MS with the last
   * answer.
   */
  async function waitFor(
    vehicle: string,
    what: string,
    done: (guidance: Guidance, response: ApiResponse) => boolean,
  ): Promise<Guidance> {
    const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
    for (;;) {
      const response = await read(vehicle);
      if (done(response.json, response)) return response.json;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; last answer: ${response.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return { path, newTruck, drive, start, read, current, waitFor };
}

export interface ReceivedDelivery {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver on loopback that answers 204 and keeps what it got (local stack only). */
export async function startReceiver(): Promise<{
  url: string;
  received: ReceivedDelivery[];
  close: () => Promise<void>;
}> {
  const received: ReceivedDelivery[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits (up to ASYNC_EFFECT_TIMEOUT_MS) until `find` returns something. */
export async function eventually<T>(what: string, find: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
  for (;;) {
    const value = find();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
