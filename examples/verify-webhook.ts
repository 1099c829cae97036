/**
 * Runnable receiver example: `npx tsx examples/verify-webhook.ts`.
 *
 * Starts a receiver on an ephemeral loopback port, signs a sample `guidance.updated` envelope the
 * way the service does, POSTs it to itself, and verifies it with the standalone helper in
 * `webhooks-receiver/index.ts` (the file to copy into your own service). A tampered copy of the
 * body is sent too, to show it being refused. Exits 0 when both behave, 1 otherwise.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateWebhookSecret, signPayload } from '../shared/webhooks/domain/signature.ts';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../webhooks-receiver/index.ts';

const secret = generateWebhookSecret();

// ---- The receiver: what an integrator writes. ----
const receiver = createServer(async (req, res) => {
  // Verify the raw bytes; parse JSON only after the signature holds.
  const rawBody = await readRawBody(req);
  const result = verifyWebhookSignature({ rawBody, header: req.headers[SIGNATURE_HEADER], secrets: secret });
  if (!result.ok) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(result.reason);
    return;
  }
  const event = JSON.parse(rawBody.toString('utf8')) as { id: string; type: string };
  // Deduplicate on X-Service-Event-Id here before acting: deliveries can repeat (docs/api-guide.md#events-and-webhooks).
  res.writeHead(204).end();
  console.log(`receiver: verified ${event.type} ${event.id} signed at t=${result.timestamp}`);
});

function readRawBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// ---- The sender: what the service's dispatcher does for each delivery. ----
async function deliver(url: string, rawBody: string, signature: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'x-service-event-id': 'evt_01JZEXAMPLE0000000000000000',
      'x-service-event-type': 'guidance.updated',
      'x-service-signature': signature,
    },
    body: rawBody,
    redirect: 'manual',
  });
}

async function main(): Promise<number> {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/webhooks/fleet-fuel`;

  const envelope = {
    id: 'evt_01JZEXAMPLE0000000000000000',
    type: 'guidance.updated',
    api_version: '2026-07-01',
    sandbox: true,
    sequence: 42,
    occurred_at: new Date().toISOString(),
    fleet_id: 'flt_01JZEXAMPLE0000000000000000',
    data: { vehicle_id: 'veh_01JZEXAMPLE0000000000000000', guidance_id: 'gd_01JZEXAMPLE0000000000000000' },
  };
  const rawBody = JSON.stringify(envelope);
  const signature = signPayload([secret], rawBody, Math.floor(Date.now() / 1000));

  try {
    const genuine = await deliver(url, rawBody, signature);
    const tampered = await deliver(url, rawBody.replace('"sequence":42', '"sequence":43'), signature);
    console.log(`sender: genuine delivery -> ${genuine.status}`);
    console.log(`sender: tampered delivery -> ${tampered.status} ${await tampered.text()}`);
    if (genuine.status === 204 && tampered.status === 400) {
      console.log('verified: the genuine delivery was accepted and the tampered one refused');
      return 0;
    }
    console.error('unexpected result');
    return 1;
  } finally {
    receiver.close();
  }
}

process.exitCode = await main();
