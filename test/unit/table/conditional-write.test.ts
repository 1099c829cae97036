import { describe, expect, it } from 'vitest';
import { conditionalWrite } from '#shared/table/transactions.ts';

const failing = (error: object) => () => Promise.reject(Object.assign(new Error('refused'), error));
const conditionFailed = { name: 'ConditionalCheckFailedException' };
const transactionConditionFailed = {
  name: 'TransactionCanceledException',
  CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
};
const transactionConflict = {
  name: 'TransactionCanceledException',
  CancellationReasons: [{ Code: 'TransactionConflict' }],
};

describe('conditionalWrite', () => {
  it('is true when the write is stored', async () => {
    expect(await conditionalWrite(() => Promise.resolve({}))).toBe(true);
  });

  it('is false when a condition failed, of one item or of any item of a transaction', async () => {
    expect(await conditionalWrite(failing(conditionFailed))).toBe(false);
    expect(await conditionalWrite(failing(transactionConditionFailed))).toBe(false);
  });

  it('lets a lost transaction conflict through unless the caller counts it as a failed condition', async () => {
    await expect(conditionalWrite(failing(transactionConflict))).rejects.toThrow('refused');
    expect(await conditionalWrite(failing(transactionConflict), { orConflict: true })).toBe(false);
    expect(
      await conditionalWrite(failing({ name: 'TransactionConflictException' }), { orConflict: true }),
    ).toBe(false);
  });

  it('lets every other error through', async () => {
    await expect(
      conditionalWrite(failing({ name: 'ProvisionedThroughputExceededException' })),
    ).rejects.toThrow('refused');
    await expect(
      conditionalWrite(failing({ name: 'ValidationException' }), { orConflict: true }),
    ).rejects.toThrow('refused');
  });
});
