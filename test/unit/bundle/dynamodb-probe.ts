import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '#shared/table/dynamo-client.ts';

/**
 * A function entry for the bundle tests: one GetItem through the deployed client's whole middleware
 * stack (signing, endpoint resolution to the regional host, the JSON protocol), built with the
 * endpoint-discovery cache's stand-in,
 * answered by a stand-in HTTP handler instead of the network. Returns the request's host and
 * target and the parsed item.
 */
export const handler = async () => {
  const client = createDynamoClient({ region: 'us-east-1' });
  const sent: { hostname?: string; target?: string } = {};
  client.config.requestHandler = {
    handle: async (request: { hostname: string; headers: Record<string, string> }) => {
      sent.hostname = request.hostname;
      sent.target = request.headers['x-amz-target'];
      const body = JSON.stringify({ Item: { pk: { S: 'FLEET#1' }, n: { N: '42' } } });
      return {
        response: {
          statusCode: 200,
          reason: 'OK',
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: new Response(body).body,
        },
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  } as unknown as typeof client.config.requestHandler;
  const output = await client.send(new GetItemCommand({ TableName: 'probe', Key: { pk: { S: 'FLEET#1' } } }));
  return { ...sent, item: output.Item };
};
