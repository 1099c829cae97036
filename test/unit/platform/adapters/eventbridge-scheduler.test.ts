import {
  ConflictException,
  CreateScheduleCommand,
  SchedulerClient,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '#shared/kernel/time.ts';
import {
  atExpression,
  createEventBridgeScheduler,
  scheduleName,
} from '#shared/platform/adapters/eventbridge-scheduler.ts';

const scheduler = mockClient(SchedulerClient);
const client = new SchedulerClient({ region: 'us-east-1' });
const options = {
  queueArn: 'arn:aws:sqs:us-east-1:111111111111:deliveries',
  roleArn: 'arn:aws:iam::111111111111:role/scheduler',
  groupName: 'fleet-fuel-prod-webhook-retries',
  client,
};
const now = Date.UTC(2026, 10, 21, 12, 0, 0);
const message = { deliveryId: 'whd_01JDXYZ', attempt: 3 };

beforeEach(() => {
  scheduler.reset();
});

afterAll(() => {
  scheduler.restore();
});

describe('createEventBridgeScheduler', () => {
  it('creates a one-time UTC schedule in the group that sends the message to the queue, deleted after it fires', async () => {
    // Prepare
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:…' });
    const retries = createEventBridgeScheduler({ ...options, clock: fixedClock(now) });

    // Act
    await retries.scheduleOnce('whd_01JDXYZ-attempt-3', new Date(now + 300_000), message);

    // Assess
    const calls = scheduler.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      Name: 'whd_01JDXYZ-attempt-3',
      GroupName: 'fleet-fuel-prod-webhook-retries',
      ScheduleExpression: 'at(2026-11-21T12:05:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: options.queueArn,
        RoleArn: options.roleArn,
        Input: '{"deliveryId":"whd_01JDXYZ","attempt":3}',
      },
    });
  });

  it('rounds a time between seconds up, so a retry never fires early', async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    const retries = createEventBridgeScheduler({ ...options, clock: fixedClock(now) });

    await retries.scheduleOnce('up', new Date(now + 5_001), message);

    expect(scheduler.commandCalls(CreateScheduleCommand)[0]?.args[0].input.ScheduleExpression).toBe(
      'at(2026-11-21T12:00:06)',
    );
  });

  it('moves a time that has passed to just ahead of now', async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    const retries = createEventBridgeScheduler({ ...options, clock: fixedClock(now + 250) });

    await retries.scheduleOnce('late', new Date(now - 60_000), message);

    expect(scheduler.commandCalls(CreateScheduleCommand)[0]?.args[0].input.ScheduleExpression).toBe(
      'at(2026-11-21T12:00:02)',
    );
  });

  it('treats ConflictException (the name exists: a redelivered message) as scheduled', async () => {
    scheduler.on(CreateScheduleCommand).rejects(
      new ConflictException({
        message: 'Schedule already exists',
        Message: 'Schedule already exists',
        $metadata: {},
      }),
    );
    const retries = createEventBridgeScheduler(options);

    await expect(retries.scheduleOnce('whd_01JDXYZ-attempt-3', new Date(), message)).resolves.toBeUndefined();
  });

  it('throws any other error', async () => {
    scheduler
      .on(CreateScheduleCommand)
      .rejects(
        new ValidationException({ message: 'Invalid target', Message: 'Invalid target', $metadata: {} }),
      );
    const retries = createEventBridgeScheduler(options);

    await expect(retries.scheduleOnce('x', new Date(), message)).rejects.toThrow('Invalid target');
  });

  it('sends a sanitized name', async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    const retries = createEventBridgeScheduler(options);

    await retries.scheduleOnce('whd_1/attempt 3:retry', new Date(), message);

    expect(scheduler.commandCalls(CreateScheduleCommand)[0]?.args[0].input.Name).toBe(
      'whd_1-attempt-3-retry',
    );
  });
});

describe('scheduleName', () => {
  it.each([
    ['whd_01JDXYZ-attempt-3', 'whd_01JDXYZ-attempt-3'],
    ['a.b_c-d', 'a.b_c-d'],
    ['évt#1 /2', '-vt-1--2'],
    ['', '-'],
  ])('keeps Scheduler’s characters [0-9a-zA-Z-_.] and replaces others: %s → %s', (name, expected) => {
    expect(scheduleName(name)).toBe(expected);
  });

  it('shortens a long name to 64 characters, ending in a hash of the whole name', () => {
    const long = `whd_${'x'.repeat(80)}-attempt-`;

    const [first, second] = [scheduleName(`${long}1`), scheduleName(`${long}2`)];

    expect(first).toHaveLength(64);
    expect(first).toMatch(/^[0-9a-zA-Z_.-]+$/);
    expect(first.startsWith('whd_xxxx')).toBe(true);
    expect(second).not.toBe(first);
    expect(scheduleName(`${long}1`)).toBe(first);
  });

  it('leaves a 64-character name as it is', () => {
    const exact = 'a'.repeat(64);

    expect(scheduleName(exact)).toBe(exact);
  });
});

describe('atExpression', () => {
  it.each([
    ['2026-11-21T12:05:00.000Z', 'at(2026-11-21T12:05:00)'],
    ['2026-11-21T12:05:00.001Z', 'at(2026-11-21T12:05:01)'],
    ['2026-12-31T23:59:59.500Z', 'at(2027-01-01T00:00:00)'],
  ])('%s → %s (UTC, whole seconds, rounded up)', (iso, expected) => {
    expect(atExpression(new Date(iso))).toBe(expected);
  });
});
