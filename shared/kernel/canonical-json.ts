/**
 * Canonical JSON: members in the order the resource serializer wrote them, numbers as JavaScript
 * prints them (no trailing zeros), no whitespace. Create responses and later GETs go through the
 * same serializer from the same stored record, so they agree byte for byte; a stored event keeps
 * its delivered text in it (shared/events/store/events.ts).
 */
export function canonicalJson(body: unknown): string {
  return JSON.stringify(body, (_key, value) => {
    // -0 prints as 0 anyway; NaN/Infinity must never reach a client as null silently.
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new Error('Non-finite number in response');
    return value;
  });
}
