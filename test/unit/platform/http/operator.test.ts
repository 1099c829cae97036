import { describe, expect, it, vi } from 'vitest';
import { hashApiKey } from '#shared/keys/domain/api-key.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { authenticateOperator, operatorAuthMode } from '#shared/platform/http/operator.ts';
import type { HttpEvent } from '#shared/platform/http/types.ts';

const event = (headers: Record<string, string>, authorizer?: unknown): HttpEvent =>
  ({
    headers,
    requestContext: { http: { method: 'GET' }, ...(authorizer ? { authorizer } : {}) },
  }) as unknown as HttpEvent;

const TOKEN = 'op_local-operator-token';
const findToken = vi.fn(async (hash: string) =>
  hash === hashApiKey(TOKEN) ? { name: 'Local operator' } : null,
);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('operator authentication', () => {
  it('reads OPERATOR_AUTH: token only when asked, IAM otherwise', () => {
    expect(operatorAuthMode({ OPERATOR_AUTH: 'token' })).toBe('token');
    expect(operatorAuthMode({})).toBe('iam');
    expect(operatorAuthMode({ OPERATOR_AUTH: 'TOKEN ' })).toBe('iam');
  });

  it('token mode: the stored token authenticates, named in the audit id', async () => {
    expect(
      await authenticateOperator(event({ authorization: `Bearer ${TOKEN}` }), 'token', findToken),
    ).toEqual({
      id: 'token:Local operator',
      via: 'token',
    });
  });

  it('token mode: missing or malformed header → 401 missing_api_key; unknown token → 401 invalid_api_key', async () => {
    expect((await refusal(authenticateOperator(event({}), 'token', findToken))).code).toBe('missing_api_key');
    expect(
      (await refusal(authenticateOperator(event({ authorization: TOKEN }), 'token', findToken))).code,
    ).toBe('missing_api_key');
    const unknown = await refusal(
      authenticateOperator(event({ authorization: 'Bearer op_nope' }), 'token', findToken),
    );
    expect(unknown).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('token mode: an API key is 403 before any lookup, whether or not it exists', async () => {
    findToken.mockClear();
    const error = await refusal(
      authenticateOperator(event({ authorization: `Bearer svc_live_${'a'.repeat(32)}` }), 'token', findToken),
    );
    expect(error).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(error.detail).toMatch(/API keys cannot call the operator API/);
    expect(findToken).not.toHaveBeenCalled();
  });

  it('IAM mode: the verified caller ARN from the IAM authorizer is the operator; a bearer token is not enough', async () => {
    const arn = 'arn:aws:sts::123456789012:assumed-role/OperatorRole/alice';
    expect(await authenticateOperator(event({}, { iam: { userArn: arn } }), 'iam', findToken)).toEqual({
      id: arn,
      via: 'iam',
    });
    const bearer = await refusal(
      authenticateOperator(event({ authorization: `Bearer ${TOKEN}` }), 'iam', findToken),
    );
    expect(bearer).toMatchObject({ status: 401, code: 'missing_api_key' });
  });

  it('a failing token store is 503 auth_unavailable, not a 500', async () => {
    const broken = async () => {
      throw new Error('table gone');
    };
    const error = await refusal(
      authenticateOperator(event({ authorization: `Bearer ${TOKEN}` }), 'token', broken),
    );
    expect(error.code).toBe('auth_unavailable');
  });
});
