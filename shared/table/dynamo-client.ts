import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  AWS_CALL_LIMITS,
  type AwsCallLimits,
  boundedClientConfig,
  LOCAL_AWS_CALL_LIMITS,
} from '#shared/platform/adapters/aws-call-limits.ts';

interface ClientOptions {
  region: string;
  endpoint?: string | undefined;
  /** Bounds of each call; by default AWS_CALL_LIMITS, or LOCAL_AWS_CALL_LIMITS with an endpoint. */
  limits?: AwsCallLimits | undefined;
}

/** The credentials every local client presents: DynamoDB Local accepts any. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export function createDynamoClient(options: ClientOptions): DynamoDBClient {
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint ? localEndpointConfig(options.endpoint, options.region) : {}),
    ...boundedClientConfig(options.limits ?? (options.endpoint ? LOCAL_AWS_CALL_LIMITS : AWS_CALL_LIMITS)),
  });
  // No SDK logger is configured, yet its middleware builds a redacted copy of every input and
  // output to hand to the no-op logger: a few percent of a busy function's CPU for nothing.
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

/**
 * DynamoDB Local (the local stack, the tests): it reads the signature's credential scope but never
 * verifies the signature, so requests carry a well-formed SigV4 header without hashing the body
 * and HMAC-ing the canonical request, the largest single per-call cost in a profile of the local
 * stack (docs/scaling.md). Deployed clients (no endpoint) sign as always.
 */
function localEndpointConfig(endpoint: string, region: string): DynamoDBClientConfig {
  const scope = `${LOCAL_CREDENTIALS.accessKeyId}/20260101/${region}/dynamodb/aws4_request`;
  const authorization = `AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host, Signature=${'0'.repeat(64)}`;
  return {
    endpoint,
    credentials: LOCAL_CREDENTIALS,
    httpAuthSchemes: [
      {
        schemeId: 'aws.auth#sigv4',
        identityProvider: (config) => config.getIdentityProvider('aws.auth#sigv4'),
        signer: {
          async sign(request) {
            const headers = (request as { headers: Record<string, string> }).headers;
            headers.authorization = authorization;
            headers['x-amz-date'] = '20260101T000000Z';
            return request;
          },
        },
      },
    ],
  };
}

export function createDocumentClient(options: ClientOptions | DynamoDBClient) {
  const client = options instanceof DynamoDBClient ? options : createDynamoClient(options);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export type DocumentClient = ReturnType<typeof createDocumentClient>;
