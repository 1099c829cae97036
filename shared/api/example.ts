import type * as z from 'zod/mini';
import { type IdKind, stableId, stableTimedId } from '#shared/kernel/ids.ts';
import { ApiError, type Problem, toProblem } from '#shared/platform/errors.ts';
import type { RouteDefinition } from '#shared/platform/http/route-definition.ts';
import { validatePart } from '#shared/platform/validation/validate.ts';

/**
 * What a client sends, as it sends it: path and query values are strings (the query as it would
 * appear in the URL), the body is the JSON document.
 */
export interface RequestExample {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string>>;
  body?: unknown;
}

/**
 * One operation's examples. The generator publishes them in openapi.json; test/unit/api/examples.test.ts
 * parses each with the route's own schemas and the e2e suite sends the requests, so they cannot
 * drift from the code.
 */
export interface OperationExamples {
  /** Required when the route takes path parameters, a query or a body. */
  request?: RequestExample;
  /** A body per declared success status that has a schema (none for 204). */
  responses?: Readonly<Partial<Record<number, unknown>>>;
  /**
   * The operation's main failure, as the code raises it; published as that status's example.
   * Build it with `rejected(...)` (runs the real validation) or `new ApiError(...)`.
   */
  problem?: ApiError;
}

/** A feature's examples: one entry per route of the feature's route table, checked by tsc. */
export type ExamplesFor<Routes extends Record<string, RouteDefinition>> = {
  readonly [Name in keyof Routes]: OperationExamples;
};

/**
 * An id as the API would mint it at `createdAt`: a ULID whose time part is that instant, so the
 * ids in examples sort like the timestamps next to them. Deterministic, so openapi.json is stable.
 */
export function exampleId(kind: IdKind, createdAt: string, seed: string): string {
  return stableTimedId(kind, Date.parse(createdAt), seed);
}

/** Catalog stations are named by a stable id from their seed, like the importer does. */
export function exampleStationId(seed: string): string {
  return stableId('station', seed);
}

/**
 * The problem the API answers for an invalid request part, computed by the same validation the
 * handlers run (shared/platform/validation/validate.ts), so the published messages are the real ones.
 */
export function rejected(
  part: 'params' | 'query' | 'body',
  schema: z.core.$ZodType | undefined,
  value: unknown,
): ApiError {
  try {
    validatePart(part, schema, value);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`An example meant to be rejected passed validation: ${part} ${JSON.stringify(value)}`);
}

/** The request id every problem example carries. */
export const EXAMPLE_REQUEST_ID = exampleId('request', '2026-11-21T22:26:10.123Z', 'example-request');

/** The problem body an error answers with (the same `toProblem` the handlers use). */
export function problemExample(error: ApiError, baseUrl: string): Problem {
  return toProblem(error, EXAMPLE_REQUEST_ID, baseUrl);
}
