import * as z from 'zod/mini';

/**
 * Numbers in a query string, read strictly. `Number()` (what `z.coerce.number()` uses) reads
 * `0x10` as 16, `1e2` as 100, ` 5` as 5 and `Infinity` as a number: a client with a bug in how it
 * builds URLs would get an answer for a value it never meant. These read decimal digits only
 * (docs/validation.md, "Numbers in the query string"); anything else is 422 naming the parameter
 * and the form it takes. The range checks after them are the ordinary ones, so an out-of-range
 * value still reads "must be between 1 and 100".
 */

/** Digits only: no sign, spaces, decimal point, exponent or hex. Leading zeros are still decimal. */
const DECIMAL_INTEGER = /^\d+$/;
/** An optional minus, digits, and an optional fraction with digits on both sides of the point. */
const DECIMAL_NUMBER = /^-?\d+(?:\.\d+)?$/;

export const QUERY_INTEGER_MESSAGE = 'must be a whole number written with the digits 0-9 only, e.g. 25';
export const QUERY_NUMBER_MESSAGE =
  'must be a decimal number written with digits, an optional leading minus and an optional decimal point, e.g. -104.9903';

/**
 * Reads the text as a number when it has the form; otherwise raises `message` on the parameter.
 * A preprocessing step (transform → number): the published OpenAPI parameter is the number schema
 * after it, with its type, bounds and default.
 */
function strictly(form: RegExp, message: string, number: z.ZodMiniNumber<number>) {
  return z.pipe(
    z.transform((value: unknown, ctx) => {
      if (typeof value === 'string' && form.test(value)) return Number(value);
      // A number given by code (a test, a default) has no text to misread.
      if (typeof value === 'number') return value;
      // Absent is "is required" (issue-messages.ts words it, pairing latitude with longitude).
      if (value === undefined) ctx.issues.push({ code: 'invalid_type', expected: 'number', input: value });
      else ctx.issues.push({ code: 'custom', message, input: value });
      return z.NEVER;
    }),
    number,
  );
}

/** An integer query parameter between `min` and `max`, both inclusive. */
export function queryInteger(min: number, max: number) {
  return strictly(
    DECIMAL_INTEGER,
    QUERY_INTEGER_MESSAGE,
    z.number().check(z.int(), z.minimum(min), z.maximum(max)),
  );
}

/** A decimal query parameter: `checks` are the bounds of the number it reads. */
export function queryNumber(...checks: z.core.$ZodCheck<number>[]) {
  return strictly(DECIMAL_NUMBER, QUERY_NUMBER_MESSAGE, z.number().check(...checks));
}
