import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import {
  createGuardedLookup,
  isForbiddenAddress,
  isLoopbackAddress,
  type WebhookTargetPolicy,
} from './url-guard.ts';

/** Receivers must answer within a few seconds (docs/api-guide.md#events-and-webhooks); ours waits 5. */
export const WEBHOOK_TIMEOUT_MS = 5000;
export const WEBHOOK_USER_AGENT = 'Service-Webhooks/1.0';
/** Enough of a receiver's answer to show in the delivery log, no more. */
const MAX_RESPONSE_BYTES = 2048;

export interface WebhookSendResult {
  /** Null when no HTTP response arrived (refused, timed out, forbidden address). */
  statusCode: number | null;
  ok: boolean;
  error: string | null;
  durationMs: number;
}

/**
 * One HTTP POST of the exact bytes given. Redirects are not followed (a 3xx is a failure), the
 * address is checked again at connect time (DNS rebinding), and the whole exchange is bounded by
 * the timeout. Never throws: every outcome is a result for the delivery log.
 */
export function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { targets: WebhookTargetPolicy; timeoutMs?: number; now?: () => number } = { targets: 'public' },
): Promise<WebhookSendResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const done = (statusCode: number | null, error: string | null): WebhookSendResult => ({
    statusCode,
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
    error,
    durationMs: now() - started,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(null, 'invalid url'));
  }
  // Node connects to an IP literal without a lookup, so the guard must see it here.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (options.targets !== 'private' && isIP(literal)) {
    const forbidden = isForbiddenAddress(literal);
    const ownMachine = options.targets === 'loopback' && isLoopbackAddress(literal);
    if (forbidden && !ownMachine)
      return Promise.resolve(done(null, `refused: ${literal} is forbidden (${forbidden})`));
  }
  const send = target.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve) => {
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: createGuardedLookup({ targets: options.targets }),
        timeout: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('close', () => resolve(done(response.statusCode ?? null, null)));
        response.on('error', () => resolve(done(response.statusCode ?? null, null)));
      },
    );
    // `timeout` alone only bounds idle time; a receiver trickling bytes could hold the dispatcher.
    const limitMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    const deadline = setTimeout(
      () => request.destroy(new Error(`no complete response within ${limitMs} ms`)),
      limitMs,
    );
    request.on('close', () => clearTimeout(deadline));
    request.on('error', (error) => resolve(done(null, error.message)));
    request.end(body);
  });
}
