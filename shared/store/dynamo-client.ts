import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../platform/config.ts';

export function createDocumentClient(options: { region: string; endpoint?: string | undefined }) {
  const client = new DynamoDBClient({
    region: options.region,
    // Locally the endpoint is DynamoDB Local, which accepts any credentials.
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 3,
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export type DocumentClient = ReturnType<typeof createDocumentClient>;

let shared: DocumentClient | undefined;

/** The container's client: created once, outside handlers, reused across invocations. */
export function documentClient(): DocumentClient {
  const { region, dynamoEndpoint } = config();
  shared ??= createDocumentClient({ region, endpoint: dynamoEndpoint });
  return shared;
}
