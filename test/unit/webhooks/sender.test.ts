import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from '#shared/platform/webhook-sender.ts';

let server: Server;
let base = '';
const seen: { path: string; body: string; length: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({ path: request.url ?? '', body, length: request.headers['content-length'] });
      if (request.url === '/ok') response.writeHead(202).end('thanks');
      else if (request.url === '/redirect') response.writeHead(302, { location: '/ok' }).end();
      else if (request.url === '/slow') setTimeout(() => response.writeHead(200).end(), 500);
      else response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('sendWebhook', () => {
  it('POSTs the exact bytes and reports a 2xx as delivered', async () => {
    const body = '{"id":"evt_1","data":{"x":"é"}}';
    const result = await sendWebhook(
      `${base}/ok`,
      body,
      { 'Content-Type': 'application/json' },
      { targets: 'loopback' },
    );
    expect(result).toMatchObject({ ok: true, statusCode: 202, error: null });
    const last = seen.at(-1);
    expect(last?.body).toBe(body);
    expect(last?.length).toBe(String(Buffer.byteLength(body)));
  });

  it('does not follow redirects: a 302 is a failed attempt', async () => {
    const before = seen.length;
    const result = await sendWebhook(`${base}/redirect`, '{}', {}, { targets: 'loopback' });
    expect(result).toMatchObject({ ok: false, statusCode: 302 });
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/redirect']);
  });

  it('gives up after the timeout', async () => {
    const result = await sendWebhook(`${base}/slow`, '{}', {}, { targets: 'loopback', timeoutMs: 100 });
    expect(result.ok).toBe(false);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/100 ms/);
  });

  it('refuses a forbidden address without connecting unless private targets are allowed', async () => {
    const before = seen.length;
    const refused = await sendWebhook(`${base}/ok`, '{}', {}, { targets: 'public' });
    expect(refused).toMatchObject({ ok: false, statusCode: null });
    expect(refused.error).toMatch(/forbidden/);
    const metadata = await sendWebhook('http://169.254.169.254/latest', '{}', {}, { targets: 'public' });
    expect(metadata.error).toMatch(/forbidden/);
    expect(seen.length).toBe(before);
  });

  it('with loopback targets (the local stack), still refuses every other private address', async () => {
    const metadata = await sendWebhook('http://169.254.169.254/latest', '{}', {}, { targets: 'loopback' });
    expect(metadata).toMatchObject({ ok: false, statusCode: null });
    expect(metadata.error).toBe('refused: 169.254.169.254 is forbidden (link-local)');
    const lan = await sendWebhook('http://10.0.0.1:4000/hook', '{}', {}, { targets: 'loopback' });
    expect(lan.error).toBe('refused: 10.0.0.1 is forbidden (private)');
  });
});
