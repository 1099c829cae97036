import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient, createDynamoClient } from '#shared/table/dynamo-client.ts';

/** A stand-in DynamoDB endpoint that answers every call with an empty item and keeps the headers. */
const seen: IncomingHttpHeaders[] = [];
const server = createServer((request, response) => {
  seen.push(request.headers);
  request.resume();
  response.setHeader('content-type', 'application/x-amz-json-1.0');
  response.end('{}');
});
let endpoint: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the DynamoDB client', () => {
  it('against a local endpoint sends a well-formed SigV4 header without computing a signature', async () => {
    const client = createDocumentClient({ region: 'us-east-1', endpoint });
    try {
      const answer = await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));
      expect(answer.Item).toBeUndefined();
    } finally {
      client.destroy();
    }
    const headers = seen.at(-1);
    // DynamoDB Local reads the access key and region from the credential scope.
    expect(headers?.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/us-east-1\/dynamodb\/aws4_request, SignedHeaders=host, Signature=0{64}$/,
    );
    expect(headers?.['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
  });

  it('deployed (no endpoint) keeps the SDK’s own SigV4 signer', async () => {
    const client = createDynamoClient({ region: 'us-east-1' });
    try {
      const schemes = client.config.httpAuthSchemes;
      expect(schemes.find((scheme) => scheme.schemeId === 'aws.auth#sigv4')?.signer.constructor.name).toBe(
        'AwsSdkSigV4Signer',
      );
    } finally {
      client.destroy();
    }
  });

  it('drops the SDK logger middleware, which only fed a no-op logger', () => {
    const client = createDynamoClient({ region: 'us-east-1' });
    try {
      const middleware = client.middlewareStack.identify().join('\n');
      expect(middleware).not.toContain('loggerMiddleware');
      expect(middleware).toContain('retryMiddleware');
    } finally {
      client.destroy();
    }
  });
});
