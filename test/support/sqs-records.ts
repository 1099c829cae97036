import type { Context, SQSRecord } from 'aws-lambda';

/** An SQS record as Lambda hands it to a queue consumer, delivered `receiveCount` times. */
export const sqsRecord = (messageId: string, body: string, receiveCount = '1', queue = 'queue'): SQSRecord =>
  ({
    messageId,
    receiptHandle: messageId,
    body,
    attributes: { ApproximateReceiveCount: receiveCount },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
    awsRegion: 'us-east-1',
  }) as SQSRecord;

/** The Lambda context a consumer reads: its name and a generous time left. */
export const consumerContext = (functionName: string): Context =>
  ({ functionName, getRemainingTimeInMillis: () => 30_000 }) as Context;
