import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/**
 * A Lambda `context` for one local invocation. The remaining time counts down from
 * `timeoutMs`; nothing enforces it (a slow handler locally is a finding, not a kill).
 */
export function createLambdaContext(functionName: string, timeoutMs = 10_000, region = 'us-east-1'): Context {
  const deadline = Date.now() + timeoutMs;
  const unsupported = (name: string) => () => {
    throw new Error(`context.${name}() is not supported: return a result from the async handler instead`);
  };
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${day}/[$LATEST]local`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported('done'),
    fail: unsupported('fail'),
    succeed: unsupported('succeed'),
  };
}
