import { inject } from 'vitest';
import { LOCAL_CREDENTIALS } from '#local/dynamodb-local.ts';
import './provided-context.ts';

/**
 * Setup file of the `integration` project (runs in each worker before the test file): points the
 * code's configuration at the run's DynamoDB Local, with dummy credentials so nothing can reach
 * an AWS account.
 */
process.env.DYNAMODB_ENDPOINT = inject('dynamoDbEndpoint');
process.env.AWS_REGION ??= 'us-east-1';
process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
