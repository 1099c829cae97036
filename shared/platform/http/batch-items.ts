import type { z } from 'zod';
import { ApiError, type ErrorCode, type FieldError } from '../errors.ts';
import { validatePart } from './validate.ts';

/**
 * Why one item of a batch was refused: the code, hint and field errors a 422 for that item alone
 * would carry, so a client handles a rejected row exactly as it handles a rejected request.
 */
export interface ItemProblem {
  code: ErrorCode;
  hint: string;
  errors?: FieldError[];
  errors_truncated?: boolean;
  error_count?: number;
}

export function itemProblem(error: ApiError): ItemProblem {
  const { errors, errors_truncated, error_count } = error.extensions;
  return {
    code: error.code,
    hint: error.hint,
    ...(errors ? { errors } : {}),
    ...(errors_truncated ? { errors_truncated, error_count } : {}),
  };
}

/** A batch item refused for one field, outside the schema (e.g. a clock check): a 422 of its own. */
export function fieldProblem(field: string, message: string, hint?: string): ItemProblem {
  return itemProblem(
    new ApiError('validation_failed', `${field} ${message}.`, {
      ...(hint ? { hint } : {}),
      extensions: { errors: [{ field, message }] },
    }),
  );
}

/** One batch item through the request validation (same messages, fields relative to the item). */
export function parseItem<T>(
  schema: z.ZodType<T>,
  raw: unknown,
): { ok: true; value: T } | { ok: false; problem: ItemProblem } {
  try {
    return { ok: true, value: validatePart('item', schema, raw) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, problem: itemProblem(error) };
    throw error;
  }
}
