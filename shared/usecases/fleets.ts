import type { CreateFleetBody, UpdateFleetBody } from '../api/schemas/fleets.ts';
import { fleetResource } from '../api/serializers/fleets.ts';
import type { Fleet } from '../domain/fleet.ts';
import type { Stage } from '../platform/config.ts';
import { notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { logger } from '../platform/observability.ts';
import { type Clock, formatTimestamp } from '../platform/time.ts';
import { buildEvent, type EventEnvelope } from '../store/events.ts';
import type { FleetStore } from '../store/fleets.ts';

export interface FleetDeps {
  fleets: FleetStore;
  stage: Stage;
  clock: Clock;
  /** Fan-out of the recorded event to webhook endpoints (fleet.provisioned on provisioning). */
  announce?: (event: EventEnvelope, partnerId: string | null) => Promise<unknown>;
}

/** The fleet's first event (sequence 1): the partner's cue that the fleet exists. */
export function fleetProvisionedEvent(stage: Stage, fleet: Fleet, nowMs: number): EventEnvelope {
  return buildEvent(stage, fleet.id, 1, 'fleet.provisioned', { fleet: fleetResource(fleet) }, nowMs);
}

/**
 * Provisioning: the fleet, the partner's grant and the fleet's first event (`fleet.provisioned`,
 * sequence 1) are written in one transaction, so a fleet never exists without its grant or its
 * announcement.
 */
export async function provisionFleet(
  deps: FleetDeps,
  partnerId: string,
  body: CreateFleetBody,
): Promise<Fleet> {
  const nowMs = deps.clock.now();
  const at = formatTimestamp(nowMs);
  const fleet: Fleet = {
    id: newId('fleet', nowMs),
    name: body.name,
    externalRef: body.external_ref ?? null,
    contactEmail: body.contact_email ?? null,
    timezone: body.timezone,
    status: 'active',
    partnerId,
    createdAt: at,
    updatedAt: at,
  };
  const event = fleetProvisionedEvent(deps.stage, fleet, nowMs);
  await deps.fleets.provision(fleet, partnerId, event);
  // The fleet exists now: a failing fan-out is logged, not answered as a 500 the client would
  // retry into a second fleet.
  await deps.announce?.(event, partnerId).catch((error: unknown) => {
    logger.error('fleet.provisioned fan-out failed', { error, fleetId: fleet.id, eventId: event.id });
  });
  return fleet;
}

/** The fleets the partner holds a grant on, a page at a time. */
export function listGrantedFleets(
  deps: Pick<FleetDeps, 'fleets'>,
  partnerId: string,
  limit: number,
  cursor: string | undefined,
) {
  return deps.fleets.listGranted(partnerId, limit, cursor);
}

/** A fleet the partner holds a grant on; anything else is 404, never a hint that it exists. */
export async function grantedFleet(deps: Pick<FleetDeps, 'fleets'>, partnerId: string, fleetId: string) {
  const [granted, fleet] = await Promise.all([
    deps.fleets.hasGrant(partnerId, fleetId),
    deps.fleets.get(fleetId),
  ]);
  if (!granted || !fleet) throw notFound(`Fleet ${fleetId}`);
  return fleet;
}

export async function updateFleet(
  deps: FleetDeps,
  partnerId: string,
  fleetId: string,
  body: UpdateFleetBody,
) {
  await grantedFleet(deps, partnerId, fleetId);
  const updated = await deps.fleets.update(
    fleetId,
    { name: body.name, externalRef: body.external_ref, contactEmail: body.contact_email },
    formatTimestamp(deps.clock.now()),
  );
  if (!updated) throw notFound(`Fleet ${fleetId}`);
  return updated;
}

export async function deactivateFleet(deps: FleetDeps, partnerId: string, fleetId: string): Promise<void> {
  const revoked = await deps.fleets.deactivate(partnerId, fleetId, formatTimestamp(deps.clock.now()));
  if (!revoked) throw notFound(`Fleet ${fleetId}`);
}
