/**
 * The methods the route table serves on a concrete path (`/v1/vehicles/veh_…` → GET, PATCH), so a
 * request that reached the `$default` route can tell "no such path" (404) from "not with this
 * method" (405 with `Allow`). Templates are API Gateway's: `{name}` matches one non-empty segment.
 */
export function allowedMethods(
  routes: readonly { method: string; path: string }[],
  rawPath: string,
): string[] {
  const parts = rawPath.split('/').map(decodeSegment);
  const methods = routes
    .filter((route) => matches(route.path.split('/'), parts))
    .map((route) => route.method.toUpperCase());
  return [...new Set(methods)].sort();
}

function matches(template: readonly string[], parts: readonly string[]): boolean {
  if (template.length !== parts.length) return false;
  return template.every((segment, index) => {
    const part = parts[index] as string;
    return /^\{[^{}]+\}$/.test(segment) ? part !== '' : segment === part;
  });
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
