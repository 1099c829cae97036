import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deadLetterQueue,
  deliveryQueue,
  registerLocalPipeline,
  resetDeliveryPipeline,
  retryScheduler,
} from '../../../../shared/platform/adapters/delivery-pipeline.ts';

// Every client the factories build answers from these mocks.
const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);

const awsEnv = {
  AWS_REGION: 'us-east-1',
  DELIVERIES_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111111111111/deliveries',
  DELIVERIES_QUEUE_ARN: 'arn:aws:sqs:us-east-1:111111111111:deliveries',
  DELIVERIES_DLQ_URL: 'https://sqs.us-east-1.amazonaws.com/111111111111/deliveries-dlq',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::111111111111:role/scheduler',
  SCHEDULE_GROUP_NAME: 'fleet-fuel-prod-webhook-retries',
};
const localEnv = { LOCAL_PIPELINE: '1' };
const message = { deliveryId: 'whd_1' };

beforeEach(() => {
  sqs.reset();
  scheduler.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
  scheduler.on(CreateScheduleCommand).resolves({});
  resetDeliveryPipeline();
});

afterAll(() => {
  sqs.restore();
  scheduler.restore();
});

describe('delivery pipeline factories, deployed', () => {
  it('sends deliveries to DELIVERIES_QUEUE_URL and dead letters to DELIVERIES_DLQ_URL', async () => {
    await deliveryQueue(awsEnv).send([message]);
    await deadLetterQueue(awsEnv).send([message]);

    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.QueueUrl)).toEqual([
      awsEnv.DELIVERIES_QUEUE_URL,
      awsEnv.DELIVERIES_DLQ_URL,
    ]);
  });

  it('schedules retries in SCHEDULE_GROUP_NAME, to DELIVERIES_QUEUE_ARN, as SCHEDULER_ROLE_ARN', async () => {
    await retryScheduler(awsEnv).scheduleOnce('whd_1-attempt-2', new Date(), message);

    expect(scheduler.commandCalls(CreateScheduleCommand)[0]?.args[0].input).toMatchObject({
      GroupName: awsEnv.SCHEDULE_GROUP_NAME,
      Target: { Arn: awsEnv.DELIVERIES_QUEUE_ARN, RoleArn: awsEnv.SCHEDULER_ROLE_ARN },
    });
  });

  it('creates each adapter once per container', () => {
    expect(deliveryQueue(awsEnv)).toBe(deliveryQueue(awsEnv));
    expect(deadLetterQueue(awsEnv)).toBe(deadLetterQueue(awsEnv));
    expect(retryScheduler(awsEnv)).toBe(retryScheduler(awsEnv));
  });

  it.each([
    ['DELIVERIES_QUEUE_URL', () => deliveryQueue({ ...awsEnv, DELIVERIES_QUEUE_URL: '' })],
    ['DELIVERIES_DLQ_URL', () => deadLetterQueue({ ...awsEnv, DELIVERIES_DLQ_URL: undefined })],
    ['SCHEDULER_ROLE_ARN', () => retryScheduler({ ...awsEnv, SCHEDULER_ROLE_ARN: undefined })],
  ])('names a missing %s', (name, create) => {
    expect(create).toThrow(`Missing environment variable ${name}`);
  });
});

describe('delivery pipeline factories, LOCAL_PIPELINE=1', () => {
  const fakes = () => ({
    queue: { send: vi.fn(async () => {}) },
    scheduler: { scheduleOnce: vi.fn(async () => {}) },
    deadLetterQueue: { send: vi.fn(async () => {}) },
  });

  it('uses the registered in-process adapters and never AWS', async () => {
    // Prepare
    const local = fakes();
    registerLocalPipeline(local);
    const at = new Date();

    // Act
    await deliveryQueue(localEnv).send([message]);
    await deadLetterQueue(localEnv).send([message]);
    await retryScheduler(localEnv).scheduleOnce('whd_1-attempt-2', at, message);

    // Assess
    expect(local.queue.send).toHaveBeenCalledWith([message]);
    expect(local.deadLetterQueue.send).toHaveBeenCalledWith([message]);
    expect(local.scheduler.scheduleOnce).toHaveBeenCalledWith('whd_1-attempt-2', at, message);
    expect(sqs.calls()).toHaveLength(0);
    expect(scheduler.calls()).toHaveLength(0);
  });

  it('finds adapters registered after the factory was called (a handler module loaded first)', async () => {
    const queue = deliveryQueue(localEnv);
    const local = fakes();
    registerLocalPipeline(local);

    await queue.send([message]);

    expect(local.queue.send).toHaveBeenCalledOnce();
  });

  it('says what is missing when nothing is registered', async () => {
    await expect(deliveryQueue(localEnv).send([message])).rejects.toThrow(
      'LOCAL_PIPELINE=1 but no local queue is registered',
    );
  });
});
