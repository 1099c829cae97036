import { hashApiKey } from '#shared/keys/domain/api-key.ts';
import { authUnavailable } from '../domain-errors.ts';
import { ApiError } from '../errors.ts';
import { logger } from '../observability.ts';
import { header } from './request-meta.ts';
import type { HttpEvent } from './types.ts';

/**
 * How the operator API knows who calls it (`OPERATOR_AUTH`):
 * - `iam` (the default, and what CDK sets): API Gateway's IAM authorizer has already verified the
 *   SigV4 signature of the operators' role before the function runs; the handler reads the caller
 *   from the request context and never sees an unsigned request.
 * - `token` (the local stack only): `Authorization: Bearer <operator_token>`, checked against the
 *   token's SHA-256 stored as an `OPERATOR#` item of the control table by the local seed.
 * Defaulting to `iam` means a function deployed without the variable refuses every bearer token.
 */
export type OperatorAuthMode = 'iam' | 'token';

export const OPERATOR_AUTH_ENV = 'OPERATOR_AUTH';

export function operatorAuthMode(env: NodeJS.ProcessEnv = process.env): OperatorAuthMode {
  return env[OPERATOR_AUTH_ENV] === 'token' ? 'token' : 'iam';
}

/** Who acts: the IAM caller's ARN, or the local token's name. Recorded as the audit actor. */
export interface Operator {
  id: string;
  via: OperatorAuthMode;
}

/** The stored operator token for a SHA-256, or null. */
export type FindOperatorToken = (tokenHash: string) => Promise<{ name: string } | null>;

const API_KEY_PREFIX = /^svc_(live|test)_/;

const CREDENTIALS_HINT =
  'the operator API takes IAM (SigV4) credentials of the operators’ role in AWS, and the operator_token of .local/credentials.json as a Bearer token locally';

/** The caller of an operator route, or the problem that refuses it (401 or 403). */
export async function authenticateOperator(
  event: HttpEvent,
  mode: OperatorAuthMode,
  findToken: FindOperatorToken,
): Promise<Operator> {
  if (mode === 'iam') return iamOperator(event);
  const authorization = header(event, 'authorization');
  if (!authorization) {
    throw new ApiError('missing_api_key', 'The Authorization header is missing.', { hint: CREDENTIALS_HINT });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) {
    throw new ApiError('missing_api_key', 'The Authorization header must read `Bearer <operator_token>`.', {
      hint: CREDENTIALS_HINT,
    });
  }
  const presented = match[1] as string;
  if (API_KEY_PREFIX.test(presented)) {
    // An API key is a customer's credential, valid or not: it never opens the operator API.
    throw new ApiError('insufficient_scope', 'API keys cannot call the operator API.', {
      hint: CREDENTIALS_HINT,
      extensions: { required_scope: 'operator' },
    });
  }
  let token: { name: string } | null;
  try {
    token = await findToken(hashApiKey(presented));
  } catch (error) {
    logger.error('Operator token store unavailable', { error });
    throw authUnavailable('The operator token could not be checked right now.');
  }
  if (!token) {
    throw new ApiError('invalid_api_key', 'The operator token is not recognized.', {
      hint: CREDENTIALS_HINT,
    });
  }
  return { id: `token:${token.name}`, via: 'token' };
}

interface IamIdentity {
  userArn?: string | null;
  callerId?: string | null;
  accountId?: string | null;
}

/**
 * API Gateway HTTP APIs put the verified caller under `requestContext.authorizer.iam`. Its absence
 * means the route was deployed without the IAM authorizer: refused rather than trusted.
 */
function iamOperator(event: HttpEvent): Operator {
  const context = event.requestContext as HttpEvent['requestContext'] & {
    authorizer?: { iam?: IamIdentity };
  };
  const iam = context.authorizer?.iam;
  const id = iam?.userArn ?? iam?.callerId;
  if (!id) {
    throw new ApiError('missing_api_key', 'The request carries no verified IAM caller.', {
      hint: CREDENTIALS_HINT,
    });
  }
  return { id, via: 'iam' };
}
