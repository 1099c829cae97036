import type * as z from 'zod/mini';
import { ApiError, type ErrorCode, type FieldError } from '../errors.ts';
import { MAX_ITEM_FIELD_ERRORS, validatePart } from './validate.ts';

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
  const { errors, error_count } = error.extensions;
  if (!errors) return { code: error.code, hint: error.hint };
  const total = error_count ?? errors.length;
  return {
    code: error.code,
    hint: error.hint,
    errors: errors.slice(0, MAX_ITEM_FIELD_ERRORS),
    ...(total > MAX_ITEM_FIELD_ERRORS ? { errors_truncated: true, error_count: total } : {}),
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
  schema: z.core.$ZodType<T>,
  raw: unknown,
): { ok: true; value: T } | { ok: false; problem: ItemProblem } {
  try {
    return { ok: true, value: validatePart('item', schema, raw) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, problem: itemProblem(error) };
    throw error;
  }
}
