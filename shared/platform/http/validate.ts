import type { z } from 'zod';
import { ApiError, type FieldError } from '../errors.ts';

type Part = 'params' | 'query' | 'body';

/**
 * zod → spec section 7: ids that are malformed or carry the wrong prefix are 400
 * `invalid_public_id`; everything else is 422 `validation_failed` with one `{ field, message }` per
 * problem, fields as dotted paths (`destination.latitude`, `locations.3.latitude`).
 */
export function validatePart<T>(part: Part, schema: z.ZodType<T> | undefined, value: unknown): T {
  if (!schema) return (value ?? {}) as T;
  const result = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (result.success) return result.data;

  const idIssue = result.error.issues.find(
    (issue): issue is z.core.$ZodIssueCustom => issue.code === 'custom' && Boolean(issue.params?.publicId),
  );
  if (idIssue) {
    const field = fieldName(part, idIssue.path);
    throw new ApiError('invalid_public_id', `${field} ${idIssue.message}.`, {
      hint: `check the prefix: ${field} takes ${String(idIssue.params?.publicId)}_ ids`,
    });
  }
  const errors: FieldError[] = result.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: fieldName(part, [...issue.path, key]),
        message: 'is not a recognized field',
      }));
    }
    return [{ field: fieldName(part, issue.path), message: issue.message }];
  });
  const where = part === 'body' ? 'request body' : part === 'query' ? 'query parameters' : 'path';
  throw new ApiError('validation_failed', `The ${where} failed validation: ${describe(errors)}.`, {
    extensions: { errors },
  });
}

function fieldName(part: Part, path: readonly PropertyKey[]): string {
  if (path.length === 0) return part === 'body' ? 'body' : part;
  return path.map(String).join('.');
}

function describe(errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.field} ${e.message}`);
  return errors.length > 3 ? `${shown.join('; ')}; and ${errors.length - 3} more` : shown.join('; ');
}
