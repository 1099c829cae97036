import { describe, expect, it } from 'vitest';
import { accountOperations } from '#shared/accounts/api/operations.ts';
import { ok } from '#shared/platform/http/types.ts';
import { tripOperations } from '#shared/trips/api/operations.ts';
import { httpHandler } from '#shared/wiring/http.ts';
import { idempotentHttpHandler } from '#shared/wiring/idempotent-http.ts';

/*
 * httpHandler leaves Powertools idempotency out of a function's bundle, so it must never silently
 * build an idempotent route without its Idempotency-Key replay.
 */
describe('the route handler factories', () => {
  it('refuse to build an idempotent route without the idempotency runner, naming the one to use', () => {
    // Arrange
    const build = () => httpHandler(tripOperations.createTrip, async () => ok({}));

    // Act / Assess
    expect(build).toThrow('createTrip is idempotent: build its handler with idempotentHttpHandler');
  });

  it('build an idempotent route with idempotentHttpHandler and any other route with httpHandler', () => {
    // Arrange / Act
    const idempotent = idempotentHttpHandler(tripOperations.createTrip, async () => ok({}));
    const plain = httpHandler(accountOperations.getMe, async () => ok({}));

    // Assess
    expect([typeof idempotent, typeof plain]).toEqual(['function', 'function']);
  });
});
