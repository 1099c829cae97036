/**
 * The README's quickstart, run end to end over HTTP: `npm run quickstart`.
 *
 * 1. create a vehicle, 2. send a breadcrumb and read the latest position, 3. start guidance to
 * Denver and read it, 4. receive webhooks on a loopback receiver this script starts (a test send,
 * then the real `guidance.updated` announcing the cancelled session), each verified with
 * `webhooks-receiver/`, 5. plan a fuel-optimized route and read it back. Exits 0 when every step
 * answers as the README says, 1 (naming the step and the API's answer) otherwise.
 *
 * Where it calls: `FLEET_FUEL_BASE_URL` and `FLEET_FUEL_API_KEY` when both are set; otherwise the
 * local stack's credentials file (`LOCAL_CREDENTIALS_PATH`, default `.local/credentials.json`:
 * its `base_url` and `keys.company_live`). Step 4 registers a loopback receiver, which the local
 * stack accepts as `npm start` starts it (not with `--webhook-targets public`, nor on a deployed
 * stage).
 *
 * `npm run smoke` runs it against a deployed stage (`FLEET_FUEL_BASE_URL`, `FLEET_FUEL_API_KEY`)
 * with `FLEET_FUEL_SKIP_WEBHOOKS=1`: a deployed stage delivers to public HTTPS receivers only, so
 * step 4 is skipped (and said so) and the guidance session is cancelled without a receiver.
 *
 * Each run uses a fresh external_ref, so it can be repeated against a stack that keeps its data.
 * It deletes the webhook endpoint it registered (the receiver is gone when it exits); the vehicle,
 * its breadcrumb and the route stay, as they would after the README's curl commands.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CREDENTIALS_PATH, readCredentials } from '../local/credentials.ts';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../webhooks-receiver/index.ts';

const DALLAS = { latitude: 32.7767, longitude: -96.797 };
const DENVER = { latitude: 39.7392, longitude: -104.9903, name: 'Denver' };
/** How long the guidance worker and the webhook pipeline get to catch up (they work off queues). */
const PATIENCE_MS = 15_000;

/** A step that did not answer as the README says: the message names what was expected. */
class StepFailure extends Error {}

// biome-ignore lint/suspicious/noExplicitAny: the script reads the fields the README shows; a type per answer would be noise.
type Json = any;

function target(): { baseUrl: string; key: string } {
  const { FLEET_FUEL_BASE_URL: baseUrl, FLEET_FUEL_API_KEY: key } = process.env;
  if (baseUrl && key) return { baseUrl: baseUrl.replace(/\/+$/, ''), key };
  const credentials = readCredentials(process.env.LOCAL_CREDENTIALS_PATH || DEFAULT_CREDENTIALS_PATH);
  return { baseUrl: credentials.base_url.replace(/\/+$/, ''), key: credentials.keys.company_live };
}

function client(baseUrl: string, key: string) {
  return async function call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    expected: number,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<Json> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    if (response.status !== expected) {
      throw new StepFailure(`${method} ${path} answered ${response.status}, expected ${expected}: ${text}`);
    }
    return text ? JSON.parse(text) : undefined;
  };
}

interface VerifiedEvent {
  id: string;
  type: string;
  sequence: number;
  data: Json;
}

/**
 * The integrator's side: a loopback receiver that verifies every delivery against the endpoint's
 * secret before parsing it, answers 204 to a genuine one and 400 to anything else, and keeps both.
 */
async function startReceiver() {
  const verified: VerifiedEvent[] = [];
  const refused: string[] = [];
  let secret = '';
  const server = createServer(async (request, response) => {
    const rawBody = await readRawBody(request);
    const result = verifyWebhookSignature({
      rawBody,
      header: request.headers[SIGNATURE_HEADER],
      secrets: secret,
    });
    if (!result.ok) {
      refused.push(result.reason);
      response.writeHead(400).end(result.reason);
      return;
    }
    verified.push(JSON.parse(rawBody.toString('utf8')) as VerifiedEvent);
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    verified,
    refused,
    useSecret: (value: string) => {
      secret = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readRawBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function eventually<T>(what: string, find: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const value = await find();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new StepFailure(`timed out after ${PATIENCE_MS / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(): Promise<number> {
  const { baseUrl, key } = target();
  const call = client(baseUrl, key);
  const skipWebhooks = process.env.FLEET_FUEL_SKIP_WEBHOOKS === '1';
  const receiver = skipWebhooks ? undefined : await startReceiver();
  const ref = `TRUCK-${randomUUID().slice(0, 8)}`;
  const vehiclePath = `/v1/vehicles/ext:${ref}`;
  let endpointId: string | undefined;
  let step = '';
  const say = (line: string) => console.log(`   ${line}`);
  const begin = (title: string) => {
    step = title;
    console.log(title);
  };

  try {
    console.log(`Quickstart against ${baseUrl}\n`);

    begin('1. Create a vehicle');
    const vehicle = await call('POST', '/v1/vehicles', 201, {
      body: { external_ref: ref, tank_size_gallons: 150, estimated_mpg: 6.5 },
    });
    say(`${vehicle.id} (external_ref ${vehicle.external_ref})`);

    begin('2. Send a breadcrumb, read the latest position');
    const batch = await call('POST', '/v1/locations', 200, {
      body: {
        locations: [
          { external_ref: ref, ...DALLAS, recorded_at: new Date().toISOString(), fuel_level_percent: 30 },
        ],
      },
    });
    if (batch.accepted !== 1)
      throw new StepFailure(`the breadcrumb was not accepted: ${JSON.stringify(batch)}`);
    const position = await call('GET', `${vehiclePath}/location`, 200);
    say(`accepted 1; latest position ${position.latitude}, ${position.longitude} (${position.freshness})`);

    begin('3. Start guidance to Denver, read it');
    const started = await call('POST', `${vehiclePath}/guidance`, 201, {
      body: { destination: DENVER, min_arrival_fuel_percent: 15 },
    });
    const guidance = await eventually('guidance with a recommended stop', async () => {
      const current = await call('GET', `${vehiclePath}/guidance`, 200);
      return current.stops.length > 0 ? current : undefined;
    });
    const [stop] = guidance.stops;
    say(`${started.id}: phase ${guidance.phase}, ${guidance.remaining_miles} miles to go`);
    say(`first stop: ${stop.station.name}, ${stop.miles_ahead} miles ahead, buy ${stop.gallons_to_buy} gal`);
    say(stop.reason);

    if (receiver) {
      begin('4. Receive webhooks on a loopback receiver');
      const endpoint = await call('POST', '/v1/webhooks', 201, {
        body: { url: receiver.url, event_types: ['guidance.updated'] },
      }).catch((error: unknown) => {
        if (error instanceof StepFailure && error.message.includes(' 422')) {
          throw new StepFailure(
            `${error.message}\n(a loopback receiver needs the local stack as plain \`npm start\` starts it: deployed stages and --webhook-targets public refuse it)`,
          );
        }
        throw error;
      });
      endpointId = endpoint.id;
      receiver.useSecret(endpoint.secret);
      say(`endpoint ${endpoint.id} -> ${receiver.url}`);
      const sent = await call('POST', `/v1/webhooks/${endpoint.id}/test`, 200);
      if (!sent.delivered) throw new StepFailure(`the test send was not delivered: ${JSON.stringify(sent)}`);
      const test = await eventually('the test event at the receiver', () =>
        receiver.verified.find((event) => event.id === sent.event.id),
      );
      say(`verified test event ${test.type} ${test.id}`);
      await call('DELETE', `${vehiclePath}/guidance`, 204);
      const cleared = await eventually('guidance.updated (cleared) at the receiver', () =>
        receiver.verified.find(
          (event) =>
            event.sequence > 0 && event.data?.guidance_id === started.id && event.data?.change === 'cleared',
        ),
      );
      say(
        `verified ${cleared.type} ${cleared.id} (change ${cleared.data.change}, reason ${cleared.data.reason})`,
      );
      if (receiver.refused.length > 0) {
        throw new StepFailure(`the receiver refused deliveries: ${receiver.refused.join('; ')}`);
      }
    } else {
      begin('4. Receive webhooks: skipped (a deployed stage delivers to public HTTPS receivers only)');
      await call('DELETE', `${vehiclePath}/guidance`, 204);
      say(`${started.id} cancelled`);
    }

    begin('5. Plan a fuel-optimized route');
    const route = await call('POST', '/v1/routes', 201, {
      idempotencyKey: randomUUID(),
      body: { vehicle_id: `ext:${ref}`, destination: DENVER, min_arrival_fuel_percent: 15 },
    });
    const replayed = await call('GET', `/v1/routes/${route.id}`, 200);
    if (replayed.id !== route.id) throw new StepFailure(`GET /v1/routes/${route.id} answered another route`);
    say(
      `${route.id}: ${route.distance_miles} miles, plan ${route.plan.status}, ${route.plan.stops.length} stop(s)`,
    );
    say(route.plan.reason);

    console.log('\nQuickstart complete.');
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`\nQuickstart failed at "${step || 'setup'}": ${message}`);
    return 1;
  } finally {
    if (endpointId) await call('DELETE', `/v1/webhooks/${endpointId}`, 204).catch(() => undefined);
    await receiver?.close();
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`Quickstart could not start: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
