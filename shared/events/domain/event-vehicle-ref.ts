/**
 * Every vehicle event names the vehicle twice: by `vehicle_id` and by the caller's own
 * `external_ref` (null when the vehicle has none), the key a TMS files its trucks under.
 */

/** True when the data names a vehicle (a `vehicle_id` member, even null) but not its external_ref yet. */
export function lacksExternalRef(data: Readonly<Record<string, unknown>>): boolean {
  return Object.hasOwn(data, 'vehicle_id') && !Object.hasOwn(data, 'external_ref');
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
