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
  /** A test send (POST /v1/webhooks/{id}/test) says so here. */
  test?: unknown;
  data?: Record<string, unknown>;
}

/** A value longer than this is cut: one event stays one line. */
const MAX_VALUE_CHARS = 60;
/** Ids listed from an array (`stop_ids`) before the rest are counted. */
const MAX_LISTED = 3;

/**
 * One verified event as a line a person reads: type, event id and sequence, the vehicle by its
 * reference and id, then what the event says (`change: cleared`, `phase: …`, `reason: …`), in the
 * order of its `data`, and `(test)` for a test send. Works for any event type, present or future:
 * nulls and empty lists are left out, a station shows its name, a position its coordinates.
 *
 * @example
 * describeEvent('{"id":"evt_1","type":"guidance.updated","sequence":7,"data":{"vehicle_id":"veh_1","external_ref":"TRUCK-042","guidance_id":"gd_1","change":"cleared","status":"cancelled","phase":"stop_recommended","stop_ids":[],"reason":"caller_cancelled"}}');
 * // 'guidance.updated evt_1 #7 · vehicle TRUCK-042 (veh_1) · guidance_id: gd_1, change: cleared, status: cancelled, phase: stop_recommended, reason: caller_cancelled'
 */
export function describeEvent(rawBody: string): string {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(rawBody) as Envelope;
  } catch {
    return `a signed body that is not JSON (${rawBody.length} bytes)`;
  }
  const data = typeof envelope.data === 'object' && envelope.data !== null ? envelope.data : {};
  const header = [
    String(envelope.type ?? 'event'),
    String(envelope.id ?? ''),
    ...(typeof envelope.sequence === 'number' ? [`#${envelope.sequence}`] : []),
  ]
    .filter(Boolean)
    .join(' ');
  const vehicle = describeVehicle(data);
  const fields = describeFields(data);
  return [header, ...(vehicle ? [vehicle] : []), ...(fields ? [fields] : [])]
    .join(' · ')
    .concat(envelope.test === true ? ' (test)' : '');
}

function describeVehicle(data: Record<string, unknown>): string | undefined {
  const { vehicle_id: id, external_ref: ref } = data;
  if (typeof id !== 'string') return typeof ref === 'string' ? `vehicle ${shorten(ref)}` : undefined;
  return typeof ref === 'string' ? `vehicle ${shorten(ref)} (${id})` : `vehicle ${id}`;
}

function describeFields(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'vehicle_id' || key === 'external_ref' || key === 'longitude') continue;
    if (key === 'latitude') {
      if (typeof value === 'number' && typeof data.longitude === 'number') {
        parts.push(`position: ${value}, ${data.longitude}`);
      }
      continue;
    }
    const shown = describeValue(value);
    if (shown !== undefined) parts.push(`${key}: ${shown}`);
  }
  return parts.join(', ');
}

function describeValue(value: unknown): string | undefined {
  if (typeof value === 'string') return shorten(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const listed = value.flatMap((item) => {
      const shown = describeValue(item);
      return shown === undefined ? [] : [shown];
    });
    if (listed.length === 0) return undefined;
    const more = listed.length > MAX_LISTED ? ` +${listed.length - MAX_LISTED} more` : '';
    return `${listed.slice(0, MAX_LISTED).join(' ')}${more}`;
  }
  if (typeof value === 'object' && value !== null) {
    const { name } = value as { name?: unknown };
    return typeof name === 'string' ? shorten(name) : undefined;
  }
  return undefined;
}

/** On one line (a receiver prints what any sender put in a string), and at most MAX_VALUE_CHARS. */
function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_VALUE_CHARS ? `${flat.slice(0, MAX_VALUE_CHARS - 1)}…` : flat;
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
