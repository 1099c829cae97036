/**
 * Every vehicle event names the vehicle twice: by `vehicle_id` and by the caller's own
 * `external_ref` (null when the vehicle has none), the key a TMS files its trucks under.
 */

/** The vehicle whose external_ref the data still lacks, or null (no vehicle, or already named). */
export function vehicleAwaitingRef(data: Readonly<Record<string, unknown>>): string | null {
  if (Object.hasOwn(data, 'external_ref')) return null;
  return typeof data.vehicle_id === 'string' ? data.vehicle_id : null;
}

/** The data with `external_ref` right after `vehicle_id`, where a reader looks for it. */
export function withExternalRef(
  data: Readonly<Record<string, unknown>>,
  externalRef: string | null,
): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(data)) {
    named[member] = value;
    if (member === 'vehicle_id') named.external_ref = externalRef;
  }
  return named;
}
