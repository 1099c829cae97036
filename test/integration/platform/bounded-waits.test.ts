import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '#local/stack.ts';
import { apiErrorForDomainError, isTransientAwsError } from '#shared/platform/domain-errors.ts';
import { createDocumentClient } from '#shared/table/dynamo-client.ts';
import { api } from '#test/support/http-client.ts';

/**
 * DynamoDB stops answering (here: its process paused with SIGSTOP, so connections open and nothing
 * comes back, as in a network partition). Every call is bounded (shared/platform/adapters/
 * aws-call-limits.ts), so requests answer 503 while it is still paused instead of hanging with it.
 * A stack of its own: pausing the suite's shared DynamoDB Local would stall every other test.
 */
const folder = mkdtempSync(join(tmpdir(), 'fleet-fuel-paused-'));
let stack: LocalStack;
let dynamoPid: number;

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    sandboxPort: 0,
    credentialsPath: join(folder, 'credentials.json'),
    quiet: true,
    print: () => {},
  });
  dynamoPid = stack.pids.dynamoDb as number;
}, 120_000);

afterAll(async () => {
  if (dynamoPid) process.kill(dynamoPid, 'SIGCONT');
  await stack?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** Runs `probe` with DynamoDB paused, and resumes it only once the probe has its answers. */
async function whilePaused<T>(probe: () => Promise<T>): Promise<T> {
  process.kill(dynamoPid, 'SIGSTOP');
  try {
    return await probe();
  } finally {
    process.kill(dynamoPid, 'SIGCONT');
  }
}

describe('with DynamoDB unresponsive', () => {
  it('a storage call gives up within its limits with an error the API answers as storage_unavailable', {
    timeout: 60_000,
  }, async () => {
    const client = createDocumentClient({ region: 'us-east-1', endpoint: stack.dynamoDbEndpoint });
    const failure = await whilePaused(() =>
      client.send(new GetCommand({ TableName: stack.tables.prod, Key: { pk: 'ANY', sk: 'ANY' } })).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(isTransientAwsError(failure)).toBe(true);
    const answer = apiErrorForDomainError(failure);
    expect(answer?.code).toBe('storage_unavailable');
    expect(answer?.headers['Retry-After']).toBe('1');
  });

  it('GET /v1/me and POST /v1/locations answer 503 auth_unavailable with Retry-After while it is paused', {
    timeout: 90_000,
  }, async () => {
    const prod = api(stack.credentials.base_url);
    const key = stack.credentials.keys.company_live;
    // Before the pause: both work (so what follows is the pause's doing).
    expect((await prod.get('/v1/me', { key })).status).toBe(200);
    const [me, locations] = await whilePaused(() =>
      Promise.all([
        prod.get('/v1/me', { key }),
        prod.post('/v1/locations', {
          key,
          body: {
            locations: [
              {
                external_ref: 'paused-1',
                latitude: 41.8781,
                longitude: -87.6298,
                recorded_at: new Date().toISOString(),
              },
            ],
          },
        }),
      ]),
    );
    // The key could not be checked: the spec's auth_unavailable, never a hang, a 500 or a 504.
    for (const answer of [me, locations]) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.json.code).toBe('auth_unavailable');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    // And once it answers again, so does the API.
    expect((await prod.get('/v1/me', { key })).status).toBe(200);
  });
});
