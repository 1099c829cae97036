import { describe, expect, it } from 'vitest';
import { idempotencyScope } from '#shared/platform/http/idempotency.ts';

// Every key of an account carries the account's id, whichever key it is.
const companyKey = (_keyId: string) => ({ accountId: 'cmp_company' });
const partnerKey = (_keyId: string) => ({ accountId: 'ptr_partner' });

describe('idempotencyScope: where an Idempotency-Key is shared (account, acting fleet, stage)', () => {
  it('is the same for every key of one company, so rotating the key mid-retry replays', () => {
    expect(idempotencyScope('prod', companyKey('key_old'), 'flt_company')).toBe(
      idempotencyScope('prod', companyKey('key_new'), 'flt_company'),
    );
  });

  it('is the same for every key of one partner acting for the same fleet', () => {
    expect(idempotencyScope('prod', partnerKey('key_a'), 'flt_1')).toBe(
      idempotencyScope('prod', partnerKey('key_b'), 'flt_1'),
    );
  });

  it('differs per acting fleet, per account and per stage', () => {
    const scopes = [
      idempotencyScope('prod', partnerKey('key_a'), 'flt_1'),
      idempotencyScope('prod', partnerKey('key_a'), 'flt_2'),
      idempotencyScope('prod', partnerKey('key_a'), null),
      idempotencyScope('prod', { accountId: 'cmp_other' }, 'flt_other'),
      idempotencyScope('prod', companyKey('key_d'), 'flt_company'),
      idempotencyScope('sandbox', companyKey('key_d'), 'flt_company'),
    ];
    expect(new Set(scopes).size).toBe(scopes.length);
  });
});
