import type * as z from 'zod/mini';
import { dateTimeMessage } from './date-time-messages.ts';

/**
 * Messages a person can act on, for every issue zod can raise ("is required", "must be a number",
 * "must be one of: a, b", "must be between 0 and 100 percent"), instead of zod's defaults
 * ("Invalid input: expected number, received undefined"). Installed per parse by validatePart, so
 * it covers every request schema, present and future; a message a schema sets itself still wins
 * (zod asks this map only for issues without one).
 */

/** Fields named for a unit say the unit with their range (`speed_mph` → "between 0 and 120 mph"). */
const UNIT_SUFFIXES: readonly (readonly [RegExp, string])[] = [
  [/(^|_)(latitude|longitude|degrees)$/, 'degrees'],
  [/_usd_per_gallon$/, 'USD per gallon'],
  [/(^|_)usd$/, 'USD'],
  [/(^|_)gallons$/, 'gallons'],
  [/(^|_)mpg$/, 'mpg'],
  [/(^|_)mph$/, 'mph'],
  [/(^|_)percent$/, 'percent'],
  [/(^|_)miles$/, 'miles'],
  [/(^|_)inches$/, 'inches'],
  [/(^|_)feet$/, 'feet'],
  [/(^|_)lbs$/, 'pounds'],
  [/(^|_)minutes$/, 'minutes'],
  [/(^|_)seconds$/, 'seconds'],
  [/(^|_)hours$/, 'hours'],
  [/(^|_)days$/, 'days'],
];

export function unitOf(field: PropertyKey | undefined): string | null {
  if (typeof field !== 'string') return null;
  return UNIT_SUFFIXES.find(([pattern]) => pattern.test(field))?.[1] ?? null;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
  null: 'null',
};

const FORMAT_MESSAGES: Record<string, string> = {
  date: 'must be an ISO 8601 date, e.g. 2026-11-23',
  time: 'must be an ISO 8601 time, e.g. 14:05:00',
  duration: 'must be an ISO 8601 duration, e.g. PT30M',
  email: 'must be an email address, e.g. dispatch@example.com',
  url: 'must be a URL, e.g. https://example.com/hooks',
  uuid: 'must be a UUID',
};

/** What a parse needs besides the issue: the raw input (to tell "missing" from "wrong"). */
export interface IssueMessages {
  /** The per-parse error map (zod's `error` option). */
  map: (issue: z.core.$ZodRawIssue) => string;
  /** For an `unrecognized_keys` issue at a path, the fields that object does accept. */
  knownKeysAt: (path: readonly PropertyKey[]) => readonly string[];
}

/**
 * The same messages for a parse that did not say what it parsed (installed globally by
 * `z.config` in shared/api/common-schemas.ts, a safety net for a schema parsed outside
 * validatePart): "missing" is then judged by the issue's input alone.
 */
export function globalIssueMessage(issue: z.core.$ZodRawIssue): string {
  const path = issue.path ?? [];
  if (issue.code === 'unrecognized_keys') return 'is not a recognized field';
  return messageFor(issue, path, UNKNOWN_ROOT);
}

const UNKNOWN_ROOT = Symbol('unknown root');

export function issueMessages(root: unknown): IssueMessages {
  const knownKeys = new Map<string, readonly string[]>();
  return {
    map: (issue) => {
      const path = issue.path ?? [];
      if (issue.code === 'unrecognized_keys') {
        knownKeys.set(pathKey(path), objectKeys(issue.schema));
        return 'is not a recognized field';
      }
      return messageFor(issue, path, root);
    },
    knownKeysAt: (path) => knownKeys.get(pathKey(path)) ?? [],
  };
}

function messageFor(issue: z.core.$ZodRawIssue, path: readonly PropertyKey[], root: unknown): string {
  const field = path.at(-1);
  switch (issue.code) {
    case 'invalid_type':
      if ((root === UNKNOWN_ROOT ? issue.input : valueAt(root, path)) === undefined) {
        return requiredMessage(field, path, root);
      }
      if (isDateTimeSchema(issue.inst)) return dateTimeMessage(issue.input);
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue, field);
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'regex') return 'is not in the accepted format';
      if (issue.format === 'datetime') return dateTimeMessage(issue.input);
      return FORMAT_MESSAGES[issue.format] ?? `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return unionMessage(issue);
    case 'invalid_key':
      return 'has a key that is not accepted';
    case 'invalid_element':
      return 'has an element that is not accepted';
    default:
      return 'is not valid';
  }
}

function requiredMessage(
  field: PropertyKey | undefined,
  path: readonly PropertyKey[],
  root: unknown,
): string {
  if ((field === 'latitude' || field === 'longitude') && root !== UNKNOWN_ROOT) {
    const other = field === 'latitude' ? 'longitude' : 'latitude';
    if (valueAt(root, [...path.slice(0, -1), other]) !== undefined) {
      return 'is required: latitude and longitude are required together';
    }
  }
  return 'is required';
}

type RawIssue<Code extends z.core.$ZodRawIssue['code']> = Extract<z.core.$ZodRawIssue, { code: Code }>;

function sizeMessage(issue: RawIssue<'too_small' | 'too_big'>, field: PropertyKey | undefined) {
  const small = issue.code === 'too_small';
  const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
  switch (issue.origin) {
    case 'string':
      if (small && Number(bound) === 1) return 'must not be empty';
      return `must be ${small ? 'at least' : 'at most'} ${bound} characters`;
    case 'array':
    case 'set':
      if (small && Number(bound) === 1) return 'must not be empty';
      return `must have ${small ? 'at least' : 'at most'} ${bound} items`;
    case 'number':
    case 'int':
    case 'bigint':
      return rangeMessage(issue.schema, field) ?? boundMessage(small, bound, issue.inclusive, unitOf(field));
    default:
      return small ? `must be at least ${bound}` : `must be at most ${bound}`;
  }
}

/** Both ends of a number's range, when it has both: "must be between 5 and 400 gallons". */
function rangeMessage(schema: unknown, field: PropertyKey | undefined): string | null {
  type Bound = { check?: string; value?: number | bigint; inclusive?: boolean };
  const checks = (schema as { _zod?: { def?: { checks?: { _zod: { def: Bound } }[] } } } | undefined)?._zod
    ?.def?.checks;
  const defs = (checks ?? []).map((check) => check._zod.def);
  const min = defs.findLast((def) => def.check === 'greater_than');
  const max = defs.findLast((def) => def.check === 'less_than');
  if (min?.value === undefined || max?.value === undefined) return null;
  const unit = unitOf(field);
  const suffix = unit ? ` ${unit}` : '';
  if (min.inclusive && max.inclusive) return `must be between ${min.value} and ${max.value}${suffix}`;
  return `must be ${min.inclusive ? 'at least' : 'more than'} ${min.value} and ${max.inclusive ? 'at most' : 'less than'} ${max.value}${suffix}`;
}

function boundMessage(small: boolean, bound: unknown, inclusive: boolean | undefined, unit: string | null) {
  const suffix = unit ? ` ${unit}` : '';
  if (small) return `must be ${inclusive === false ? 'more than' : 'at least'} ${bound}${suffix}`;
  return `must be ${inclusive === false ? 'less than' : 'at most'} ${bound}${suffix}`;
}

/** A union of plain types reads as their list ("must be a string or a number"). */
function unionMessage(issue: RawIssue<'invalid_union'>): string {
  const expected = issue.errors.map((branch) =>
    branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0
      ? TYPE_NAMES[branch[0].expected]
      : undefined,
  );
  if (expected.length > 0 && expected.every(Boolean)) return `must be ${[...new Set(expected)].join(' or ')}`;
  return 'does not match any accepted form';
}

/** A `z.iso.datetime()` schema: its type issue (an epoch number) gets the date-time message too. */
function isDateTimeSchema(inst: unknown): boolean {
  return (inst as { _zod?: { def?: { format?: string } } } | undefined)?._zod?.def?.format === 'datetime';
}

function objectKeys(schema: unknown): string[] {
  const shape = (schema as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def
    ?.shape;
  return shape ? Object.keys(shape) : [];
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function pathKey(path: readonly PropertyKey[]): string {
  return JSON.stringify(path.map(String));
}
