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
}

export function itemProblem(error: ApiError): ItemProblem {
  const errors = error.extensions.errors;
  return { code: error.code, hint: error.hint, ...(errors ? { errors } : {}) };
}

/** One batch item through the request validation (same messages, fields relative to the item). */
export function parseItem<T>(
  schema: z.ZodType<T>,
  raw: unknown,
): { ok: true; value: T } | { ok: false; problem: ItemProblem } {
  try {
    return { ok: true, value: validatePart('body', schema, raw) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, problem: itemProblem(error) };
    throw error;
  }
}
