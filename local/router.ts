/**
 * Route selection as API Gateway HTTP APIs do it: a route key `METHOD /path` matches when the
 * method is the same (or the route says ANY) and every path segment matches; `{name}` matches one
 * non-empty segment, `{name+}` the rest of the path. Of several matches the most specific wins:
 * compared segment by segment, a literal beats `{param}`, which beats `{greedy+}`; then an exact
 * method beats ANY. Whatever matches nothing goes to `$default`.
 */
export interface LocalRoute {
  method: string;
  path: string;
  operationId: string;
  /** Handler module relative to the repository root. */
  handler: string;
  /** The function's timeout when it differs from the default (10 s). */
  timeoutSeconds?: number;
}

export interface DefaultRoute {
  operationId: string;
  handler: string;
}

export interface RouteMatch {
  routeKey: string;
  operationId: string;
  handler: string;
  timeoutSeconds?: number;
  /** Decoded per segment; undefined when the route has no parameters (as in API Gateway events). */
  pathParameters: Record<string, string> | undefined;
}

type Segment =
  | { kind: 'literal'; value: string }
  | { kind: 'param'; name: string }
  | { kind: 'greedy'; name: string };

interface CompiledRoute {
  route: LocalRoute;
  method: string;
  segments: Segment[];
  rank: number[];
}

const SEGMENT_RANK = { literal: 0, param: 1, greedy: 2 } as const;

function compile(route: LocalRoute): CompiledRoute {
  const segments = route.path
    .slice(1)
    .split('/')
    .map((part): Segment => {
      const param = /^\{([^{}+]+)(\+?)\}$/.exec(part);
      if (!param?.[1]) return { kind: 'literal', value: part };
      return param[2] ? { kind: 'greedy', name: param[1] } : { kind: 'param', name: param[1] };
    });
  const method = route.method.toUpperCase();
  return {
    route,
    method,
    segments,
    rank: [...segments.map((segment) => SEGMENT_RANK[segment.kind]), method === 'ANY' ? 1 : 0],
  };
}

function compareRank(a: CompiledRoute, b: CompiledRoute): number {
  const length = Math.min(a.segments.length, b.segments.length);
  for (let index = 0; index < length; index += 1) {
    const difference = (a.rank[index] ?? 0) - (b.rank[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (a.segments.length !== b.segments.length) return b.segments.length - a.segments.length;
  return (a.rank.at(-1) ?? 0) - (b.rank.at(-1) ?? 0);
}

/** `decodeURIComponent` that keeps a malformed escape as sent instead of throwing. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function matchSegments(route: CompiledRoute, parts: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [index, segment] of route.segments.entries()) {
    if (segment.kind === 'greedy') {
      const rest = parts.slice(index);
      if (rest.length === 0 || rest.join('/') === '') return null;
      params[segment.name] = rest.map(safeDecode).join('/');
      return params;
    }
    const part = parts[index];
    if (part === undefined) return null;
    if (segment.kind === 'literal') {
      if (safeDecode(part) !== segment.value) return null;
    } else {
      if (part === '') return null;
      params[segment.name] = safeDecode(part);
    }
  }
  return parts.length === route.segments.length ? params : null;
}

export interface Router {
  /** `rawPath` as sent (percent-encoded), starting with `/`. */
  match(method: string, rawPath: string): RouteMatch;
}

export function createRouter(routes: readonly LocalRoute[], fallback: DefaultRoute): Router {
  const compiled = routes.map(compile).sort(compareRank);
  const seen = new Set<string>();
  for (const entry of compiled) {
    const key = `${entry.method} ${entry.route.path}`;
    if (seen.has(key)) throw new Error(`Duplicate route ${key}`);
    seen.add(key);
  }
  return {
    match(method, rawPath) {
      const upper = method.toUpperCase();
      const parts = rawPath.slice(1).split('/');
      for (const entry of compiled) {
        if (entry.method !== upper && entry.method !== 'ANY') continue;
        const params = matchSegments(entry, parts);
        if (!params) continue;
        const hasParams = entry.segments.some((segment) => segment.kind !== 'literal');
        return {
          routeKey: `${entry.method} ${entry.route.path}`,
          operationId: entry.route.operationId,
          handler: entry.route.handler,
          ...(entry.route.timeoutSeconds === undefined ? {} : { timeoutSeconds: entry.route.timeoutSeconds }),
          pathParameters: hasParams ? params : undefined,
        };
      }
      return {
        routeKey: '$default',
        operationId: fallback.operationId,
        handler: fallback.handler,
        pathParameters: undefined,
      };
    },
  };
}
