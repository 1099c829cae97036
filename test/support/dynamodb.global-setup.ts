import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '#local/dynamodb-local.ts';
import './provided-context.ts';

/**
 * Global setup of the `integration` project: ONE DynamoDB Local (in memory, free port) for the
 * whole run; each test file creates its own uniquely named table (see dynamodb.ts), so files can
 * run in parallel without seeing each other's items.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const db = await startDynamoDbLocal();
  project.provide('dynamoDbEndpoint', db.endpoint);
  return db.stop;
}
