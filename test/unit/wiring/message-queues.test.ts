import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  parseVehicleUpdateMessage,
  toVehicleUpdateWire,
  type VehicleUpdateMessage,
} from '#shared/tracking/domain/messages.ts';
import type { DeliveryMessage } from '#shared/webhooks/domain/delivery.ts';
import { createDeliveryRetries, deliveryRetriesOf } from '#shared/webhooks/wiring/retry-scheduler.ts';
import {
  createMessageQueues,
  forgetLocalPipeline,
  queuesOf,
  registerLocalPipeline,
  sendingTo,
} from '#shared/wiring/message-queues.ts';

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
  VEHICLE_UPDATES_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/111111111111/vehicle-updates',
};
const localEnv = { LOCAL_PIPELINE: '1' };
const T0 = Date.UTC(2026, 10, 24, 14);
/** A vehicle update with a one-breadcrumb ring (no speed reported). */
const updateWithRing: VehicleUpdateMessage = {
  fleetId: 'flt_1',
  vehicleId: 'veh_1',
  positionVersion: 3,
  positions: {
    latest: {
      latitude: 35.2,
      longitude: -101.8,
      recordedAtMs: T0,
      receivedAtMs: T0 + 2_000,
      fuelLevelPercent: 61.5,
      speedKmh: null,
      headingDegrees: null,
      driverRef: null,
      address: null,
      recordedAt: new Date(T0).toISOString(),
    },
    recent: [{ recordedAtMs: T0, latitude: 35.2, longitude: -101.8, fuelLevelPercent: 61.5, speedKmh: null }],
    flushedThroughMs: null,
    version: 3,
  },
};
/** The queues carry any message; these tests need only an id to follow. */
const message = { deliveryId: 'whd_1' } as unknown as DeliveryMessage;

beforeEach(() => {
  sqs.reset();
  scheduler.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
  scheduler.on(CreateScheduleCommand).resolves({});
  forgetLocalPipeline();
});

afterAll(() => {
  sqs.restore();
  scheduler.restore();
});

describe('message queues, deployed', () => {
  it('sends deliveries to DELIVERIES_QUEUE_URL and dead letters to DELIVERIES_DLQ_URL', async () => {
    const queues = createMessageQueues(awsEnv);
    await queues.deliveries().send([message]);
    await queues.deliveryDeadLetters().send([message]);

    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.QueueUrl)).toEqual([
      awsEnv.DELIVERIES_QUEUE_URL,
      awsEnv.DELIVERIES_DLQ_URL,
    ]);
  });

  it('schedules retries in SCHEDULE_GROUP_NAME, to DELIVERIES_QUEUE_ARN, as SCHEDULER_ROLE_ARN', async () => {
    await createDeliveryRetries(awsEnv).scheduleOnce('whd_1-attempt-2', new Date(), message);

    expect(scheduler.commandCalls(CreateScheduleCommand)[0]?.args[0].input).toMatchObject({
      GroupName: awsEnv.SCHEDULE_GROUP_NAME,
      Target: { Arn: awsEnv.DELIVERIES_QUEUE_ARN, RoleArn: awsEnv.SCHEDULER_ROLE_ARN },
    });
  });

  it('creates each adapter once per container', () => {
    const queues = createMessageQueues(awsEnv);
    expect(queues.deliveries()).toBe(queues.deliveries());
    expect(queues.deliveryDeadLetters()).toBe(queues.deliveryDeadLetters());
    expect(queues.vehicleUpdates()).toBe(queues.vehicleUpdates());
  });

  it('sends vehicle updates to VEHICLE_UPDATES_QUEUE_URL', async () => {
    await createMessageQueues(awsEnv)
      .vehicleUpdates()
      .send([{ fleetId: 'flt_1', vehicleId: 'veh_1' }]);

    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.QueueUrl)).toEqual([
      awsEnv.VEHICLE_UPDATES_QUEUE_URL,
    ]);
  });

  it('sends vehicle updates in their wire form: the ring as tuples, read back by the worker', async () => {
    await createMessageQueues(awsEnv).vehicleUpdates().send([updateWithRing]);

    const [entry] = sqs.commandCalls(SendMessageBatchCommand)[0]?.args[0].input.Entries ?? [];
    const body = JSON.parse(entry?.MessageBody ?? '{}');
    expect(body.positions.recentTuples).toEqual([[T0, 35.2, -101.8, 61.5, null]]);
    expect(parseVehicleUpdateMessage(entry?.MessageBody ?? '')).toEqual(updateWithRing);
  });

  it("uses an infrastructure's own queues and retry scheduler before the environment's", () => {
    const queues = createMessageQueues(awsEnv);
    const retries = createDeliveryRetries(awsEnv);
    expect(queuesOf({ queues })).toBe(queues);
    expect(deliveryRetriesOf({ deliveryRetries: retries })).toBe(retries);
  });

  it('needs no variable of a queue the function never uses', () => {
    const onlyIngest = { VEHICLE_UPDATES_QUEUE_URL: awsEnv.VEHICLE_UPDATES_QUEUE_URL };
    expect(() => createMessageQueues(onlyIngest).vehicleUpdates()).not.toThrow();
    expect(() => createMessageQueues(onlyIngest).deliveries()).toThrow('DELIVERIES_QUEUE_URL');
  });

  it('resolves a queue handed out with sendingTo only when it is sent to', async () => {
    const resolve = vi.fn(() => createMessageQueues(awsEnv).vehicleUpdates());
    const queue = sendingTo(resolve);
    expect(resolve).not.toHaveBeenCalled();

    await queue.send([{ fleetId: 'flt_1', vehicleId: 'veh_1' }]);

    expect(resolve).toHaveBeenCalledOnce();
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(1);
  });

  it("builds the environment's queues and retry scheduler once per container", () => {
    for (const [name, value] of Object.entries(awsEnv)) vi.stubEnv(name, value);
    try {
      expect(queuesOf({})).toBe(queuesOf({}));
      expect(queuesOf({}).deliveries()).toBe(queuesOf({}).deliveries());
      expect(deliveryRetriesOf({})).toBe(deliveryRetriesOf({}));
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it.each([
    ['DELIVERIES_QUEUE_URL', () => createMessageQueues({ ...awsEnv, DELIVERIES_QUEUE_URL: '' }).deliveries()],
    [
      'DELIVERIES_DLQ_URL',
      () => createMessageQueues({ ...awsEnv, DELIVERIES_DLQ_URL: undefined }).deliveryDeadLetters(),
    ],
    ['SCHEDULER_ROLE_ARN', () => createDeliveryRetries({ ...awsEnv, SCHEDULER_ROLE_ARN: undefined })],
    [
      'VEHICLE_UPDATES_QUEUE_URL',
      () => createMessageQueues({ ...awsEnv, VEHICLE_UPDATES_QUEUE_URL: undefined }).vehicleUpdates(),
    ],
  ])('names a missing %s', (name, create) => {
    expect(create).toThrow(`Missing environment variable ${name}`);
  });
});

describe('message queues, LOCAL_PIPELINE=1', () => {
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
    const queues = createMessageQueues(localEnv);
    await queues.deliveries().send([message]);
    await queues.deliveryDeadLetters().send([message]);
    await createDeliveryRetries(localEnv).scheduleOnce('whd_1-attempt-2', at, message);

    // Assess
    expect(local.queue.send).toHaveBeenCalledWith([message]);
    expect(local.deadLetterQueue.send).toHaveBeenCalledWith([message]);
    expect(local.scheduler.scheduleOnce).toHaveBeenCalledWith('whd_1-attempt-2', at, message);
    expect(sqs.calls()).toHaveLength(0);
    expect(scheduler.calls()).toHaveLength(0);
  });

  it('hands vehicle updates to the local queue in the same wire form as SQS', async () => {
    const vehicleUpdates = { send: vi.fn(async (_messages: readonly unknown[]) => {}) };
    registerLocalPipeline({ ...fakes(), vehicleUpdates });

    await createMessageQueues(localEnv).vehicleUpdates().send([updateWithRing]);

    expect(vehicleUpdates.send).toHaveBeenCalledWith([toVehicleUpdateWire(updateWithRing)]);
  });

  it('finds adapters registered after the factory was called (a handler module loaded first)', async () => {
    const queue = createMessageQueues(localEnv).deliveries();
    const local = fakes();
    registerLocalPipeline(local);

    await queue.send([message]);

    expect(local.queue.send).toHaveBeenCalledOnce();
  });

  it('is one registration per process, which every copy of the module finds (a stage server running bundles)', async () => {
    // Prepare: each Lambda bundle embeds its own copy of this module; a query makes a second one here.
    const copyUrl = new URL('../../../shared/wiring/message-queues.ts?another-copy', import.meta.url).href;
    const copy = (await import(
      /* @vite-ignore */ copyUrl
    )) as typeof import('#shared/wiring/message-queues.ts');
    const local = fakes();
    registerLocalPipeline(local);

    // Act
    await copy.createMessageQueues(localEnv).deliveries().send([message]);

    // Assess
    expect(copy.createMessageQueues).not.toBe(createMessageQueues);
    expect(local.queue.send).toHaveBeenCalledWith([message]);
  });

  it('says what is missing when nothing is registered', async () => {
    await expect(createMessageQueues(localEnv).deliveries().send([message])).rejects.toThrow(
      'LOCAL_PIPELINE=1 but no local queue is registered',
    );
  });
});
