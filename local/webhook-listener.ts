import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../webhooks-receiver/index.ts';

/**
 * The receiver behind `npm run webhooks:listen`: a loopback HTTP server that checks each
 * delivery's signature with the standalone receiver helper (webhooks-receiver/index.ts, the file
 * integrators copy), answers 204 when it holds and 400 with the reason when it does not, and
 * prints one line per delivery.
 */

export interface WebhookListenerOptions {
  /** 0 = any free port. */
  port: number;
  host?: string;
  /** The endpoint's current secrets; read per delivery, because they are known only after registering. */
  secrets: () => readonly string[];
  /** One line per delivery. */
  print: (line: string) => void;
  /** Also print each verified body in full. */
  printBodies?: boolean;
  /** Default: the system clock. */
  now?: () => Date;
}

export interface WebhookListener {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
  const now = options.now ?? (() => new Date());
  const server = createServer(async (request, response) => {
    const rawBody = await readRawBody(request);
    const secrets = options.secrets();
    if (secrets.length === 0) {
      // Not registered yet: nothing to verify against.
      response.writeHead(503, { 'content-type': 'text/plain' }).end('not ready');
      return;
    }
    const result = verifyWebhookSignature({ rawBody, header: request.headers[SIGNATURE_HEADER], secrets });
    const time = clock(now());
    if (!result.ok) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(result.reason);
      const type = request.headers['x-service-event-type'] ?? 'unknown type';
      options.print(`${time} ✗ refused ${type}: ${result.reason}`);
      return;
    }
    response.writeHead(204).end();
    options.print(`${time} ✓ ${describeEvent(rawBody.toString('utf8'))}`);
    if (options.printBodies) options.print(rawBody.toString('utf8'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host ?? '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${address}:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Envelope {
  id?: unknown;
  type?: unknown;
  sequence?: unknown;
  fleet_id?: unknown;
  /** A test send (POST /v1/webhooks/{id}/test) says so here. */
  test?: unknown;
  data?: Record<string, unknown>;
}

/**
 * One verified event as a line: type, event id, the ids and references it is about, and `(test)`
 * for a test send.
 *
 * @example
 * describeEvent('{"id":"evt_1","type":"vehicle.fuel_low","sequence":7,"fleet_id":"flt_1","data":{"vehicle_id":"veh_1","external_ref":"T-12"}}');
 * // 'vehicle.fuel_low evt_1 #7 fleet flt_1 vehicle_id=veh_1 external_ref=T-12'
 */
export function describeEvent(rawBody: string): string {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(rawBody) as Envelope;
  } catch {
    return `a signed body that is not JSON (${rawBody.length} bytes)`;
  }
  const data = typeof envelope.data === 'object' && envelope.data !== null ? envelope.data : {};
  const about = Object.entries(data)
    .filter(([key, value]) => (key.endsWith('_id') || key === 'external_ref') && typeof value === 'string')
    .map(([key, value]) => `${key}=${value as string}`);
  return [
    String(envelope.type ?? 'event'),
    String(envelope.id ?? ''),
    ...(typeof envelope.sequence === 'number' ? [`#${envelope.sequence}`] : []),
    ...(typeof envelope.fleet_id === 'string' ? [`fleet ${envelope.fleet_id}`] : []),
    ...about,
    ...(envelope.test === true ? ['(test)'] : []),
  ]
    .filter(Boolean)
    .join(' ');
}

function clock(date: Date): string {
  return date.toISOString().slice(11, 19);
}

function readRawBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
