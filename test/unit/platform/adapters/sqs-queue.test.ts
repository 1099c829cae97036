import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createSqsQueue, QueueSendError } from '#shared/platform/adapters/sqs-queue.ts';

const sqs = mockClient(SQSClient);
const client = new SQSClient({ region: 'us-east-1' });
const queueUrl = 'https://sqs.us-east-1.amazonaws.com/111111111111/deliveries';

interface Delivery {
  deliveryId: string;
}
const deliveries = (count: number): Delivery[] =>
  Array.from({ length: count }, (_, index) => ({ deliveryId: `whd_${index}` }));

/** The entries of every SendMessageBatch call, in call order. */
const batches = () =>
  sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries ?? []);
const bodies = (entries: readonly SendMessageBatchRequestEntry[]) =>
  entries.map((entry) => JSON.parse(entry.MessageBody ?? 'null') as Delivery);

beforeEach(() => {
  sqs.reset();
});

afterAll(() => {
  sqs.restore();
});

describe('createSqsQueue', () => {
  it('sends JSON bodies to the queue URL in one batch call for up to 10 messages', async () => {
    // Prepare
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const queue = createSqsQueue<Delivery>({ queueUrl, client });

    // Act
    await queue.send([{ deliveryId: 'whd_a' }, { deliveryId: 'whd_b' }]);

    // Assess
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      QueueUrl: queueUrl,
      Entries: [
        { Id: '0', MessageBody: '{"deliveryId":"whd_a"}' },
        { Id: '1', MessageBody: '{"deliveryId":"whd_b"}' },
      ],
    });
  });

  it('chunks any number of messages into batches of 10, each message once', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const queue = createSqsQueue<Delivery>({ queueUrl, client });

    await queue.send(deliveries(23));

    expect(batches().map((entries) => entries.length)).toEqual([10, 10, 3]);
    expect(batches().flatMap(bodies)).toEqual(deliveries(23));
  });

  it('makes no call for no messages', async () => {
    const queue = createSqsQueue<Delivery>({ queueUrl, client });

    await queue.send([]);

    expect(sqs.calls()).toHaveLength(0);
  });

  it('sends the entries SQS failed once more, and only those', async () => {
    // Prepare
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({
        Successful: [{ Id: '0', MessageId: 'm0', MD5OfMessageBody: 'x' }],
        Failed: [
          { Id: '1', SenderFault: false, Code: 'InternalError' },
          { Id: '2', SenderFault: false, Code: 'ServiceUnavailable' },
        ],
      })
      .resolves({ Successful: [], Failed: [] });
    const queue = createSqsQueue<Delivery>({ queueUrl, client });

    // Act
    await queue.send(deliveries(3));

    // Assess
    expect(batches()).toHaveLength(2);
    expect(batches()[1]).toEqual([
      { Id: '1', MessageBody: '{"deliveryId":"whd_1"}' },
      { Id: '2', MessageBody: '{"deliveryId":"whd_2"}' },
    ]);
  });

  it('throws a QueueSendError when an entry fails again on the retry', async () => {
    // Prepare
    sqs
      .on(SendMessageBatchCommand)
      .resolves({ Failed: [{ Id: '0', SenderFault: false, Code: 'InternalError' }] });
    const queue = createSqsQueue<Delivery>({ queueUrl, client });

    // Act
    const sending = queue.send(deliveries(1));

    // Assess
    await expect(sending).rejects.toBeInstanceOf(QueueSendError);
    await expect(sending).rejects.toMatchObject({
      message: `1 message(s) were not sent to ${queueUrl} (InternalError)`,
      failures: [{ code: 'InternalError', senderFault: false }],
    });
    expect(batches()).toHaveLength(2);
  });

  it('does not retry an entry refused through our own fault, and still sends the other batches', async () => {
    // Prepare
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [{ Id: '3', SenderFault: true, Code: 'InvalidMessageContents' }] })
      .resolves({ Failed: [] });
    const queue = createSqsQueue<Delivery>({ queueUrl, client });

    // Act
    const sending = queue.send(deliveries(12));

    // Assess
    await expect(sending).rejects.toMatchObject({
      failures: [{ code: 'InvalidMessageContents', senderFault: true }],
    });
    expect(batches().map((entries) => entries.length)).toEqual([10, 2]);
  });

  it('rejects with the SDK error when a batch call fails outright, after the other batches ran', async () => {
    // Prepare
    sqs
      .on(SendMessageBatchCommand)
      .rejectsOnce(Object.assign(new Error('Access denied'), { name: 'AccessDenied' }))
      .resolves({ Failed: [] });
    const queue = createSqsQueue<Delivery>({ queueUrl, client });

    // Act
    const sending = queue.send(deliveries(15));

    // Assess
    await expect(sending).rejects.toThrow('Access denied');
    expect(batches()).toHaveLength(2);
  });
});
