import * as z from 'zod/mini';
import { ApiError, type FieldError, type ProblemExtensions } from '../errors.ts';
import { suggestField } from './field-suggestions.ts';
import { issueMessages } from './issue-messages.ts';

/** `item`: one item of a batch body, validated on its own (batch-items.ts). */
type Part = 'params' | 'query' | 'body' | 'item';

/**
 * At most this many `{ field, message }` entries in one problem: a body with 150,000 unknown keys
 * must still answer a small 422 (Lambda's response limit is 6 MB). The rest are counted.
 */
export const MAX_FIELD_ERRORS = 50;
/**
 * Field errors listed per rejected batch item: fewer than a request's 50, because a batch holds up
 * to 500 items and its 200 answer must stay small (500 × 10 short entries is well under 1 MB); only
 * these are compared with the known fields, so refusing a batch of junk keys stays cheap too.
 */
export const MAX_ITEM_FIELD_ERRORS = 10;
/** A field name is echoed at most this long: an unknown key may be any length. */
const MAX_FIELD_CHARS = 100;

/** Query parameters nobody declared are refused like unknown body fields, on every route. */
const NO_QUERY = z.strictObject({});
const strictQueries = new WeakMap<z.core.$ZodType, z.core.$ZodType>();

/**
 * Read from the definition, not `instanceof z.core.$ZodObject`: a value use of `z.core` keeps all
 * of zod's core namespace (its compiler too) in every bundle.
 */
const isObject = (schema: z.core.$ZodType): schema is z.core.$ZodObject => schema._zod.def.type === 'object';

function strictQuery(schema: z.core.$ZodType | undefined): z.core.$ZodType {
  if (!schema) return NO_QUERY;
  if (!isObject(schema)) return schema;
  let strict = strictQueries.get(schema);
  if (!strict) {
    // What classic's `.strict()` does, for any zod object (classic or mini): the same schema with
    // unknown keys refused.
    strict = z.clone(schema, { ...schema._zod.def, catchall: z.never() });
    strictQueries.set(schema, strict);
  }
  return strict;
}

/**
 * zod → the API's errors (docs/validation.md): ids that are malformed or carry the wrong prefix are 400
 * `invalid_public_id`; everything else is 422 `validation_failed` with one `{ field, message }` per
 * problem (at most MAX_FIELD_ERRORS of them), fields as dotted paths (`destination.latitude`,
 * `locations.3.latitude`), messages from issue-messages.ts, unknown fields with the near-miss
 * known field when there is one.
 */
export function validatePart<T>(part: Part, schema: z.core.$ZodType<T> | undefined, value: unknown): T {
  const effective = part === 'query' ? strictQuery(schema) : schema;
  if (!effective) return (value ?? {}) as T;
  const input =
    part === 'query'
      ? withoutEmptyValues(value)
      : (value ?? (part === 'body' || part === 'item' ? undefined : {}));
  const messages = issueMessages(input);
  const result = z.safeParse(effective, input, { error: messages.map });
  if (result.success) return result.data as T;

  const idIssue = result.error.issues.find(
    (issue): issue is z.core.$ZodIssueCustom => issue.code === 'custom' && Boolean(issue.params?.publicId),
  );
  if (idIssue) {
    const field = fieldName(part, idIssue.path);
    // A schema that knows better (a vehicle reference sent bare) gives its own hint.
    const hint = idIssue.params?.hint;
    throw new ApiError('invalid_public_id', `${field} ${idIssue.message}.`, {
      hint:
        typeof hint === 'string'
          ? hint
          : `check the prefix: ${field} takes ${String(idIssue.params?.publicId)}_ ids`,
    });
  }

  const maxErrors = part === 'item' ? MAX_ITEM_FIELD_ERRORS : MAX_FIELD_ERRORS;
  const errors: FieldError[] = [];
  let total = 0;
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') {
      total += 1;
      if (errors.length < maxErrors)
        errors.push({ field: fieldName(part, issue.path), message: issue.message });
      continue;
    }
    total += issue.keys.length;
    const known = messages.knownKeysAt(issue.path);
    // Only the keys shown are compared with the known ones: the cost stays bounded too.
    for (const key of issue.keys.slice(0, Math.max(0, maxErrors - errors.length))) {
      const suggestion = suggestField(key, known);
      errors.push({
        field: fieldName(part, [...issue.path, key]),
        message: suggestion
          ? `is not a recognized field; did you mean \`${suggestion}\`?`
          : 'is not a recognized field',
      });
    }
  }
  const extensions: ProblemExtensions = { errors };
  if (total > errors.length) Object.assign(extensions, { errors_truncated: true, error_count: total });
  const where = { body: 'request body', item: 'item', query: 'query parameters', params: 'path' }[part];
  throw new ApiError('validation_failed', `The ${where} failed validation: ${describe(errors, total)}`, {
    extensions,
  });
}

function fieldName(part: Part, path: readonly PropertyKey[]): string {
  if (path.length === 0) return part;
  const name = path.map(String).join('.');
  return name.length > MAX_FIELD_CHARS ? `${name.slice(0, MAX_FIELD_CHARS)}…` : name;
}

/** The first three problems, then a count: the detail stays one short sentence. */
function describe(errors: FieldError[], total: number): string {
  const shown = errors.slice(0, 3).map((e) => `${e.field} ${e.message}`);
  const text = total > 3 ? `${shown.join('; ')}; and ${total - 3} more` : shown.join('; ');
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

/**
 * `?latitude=&longitude=` is a client that forgot to fill in a variable: an empty query value is
 * the parameter not sent (so a required one is "is required", never coerced to 0).
 */
function withoutEmptyValues(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value ?? {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== ''));
}
