import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

interface ClientOptions {
  region: string;
  endpoint?: string | undefined;
}

export function createDynamoClient(options: ClientOptions): DynamoDBClient {
  return new DynamoDBClient({
    region: options.region,
    // Locally the endpoint is DynamoDB Local, which accepts any credentials.
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 3,
  });
}

export function createDocumentClient(options: ClientOptions | DynamoDBClient) {
  const client = options instanceof DynamoDBClient ? options : createDynamoClient(options);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export type DocumentClient = ReturnType<typeof createDocumentClient>;
