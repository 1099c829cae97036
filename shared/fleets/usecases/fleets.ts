import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import type { PublishedEventData } from '#shared/events/domain/event-payloads.ts';
import { buildEvent } from '#shared/events/usecases/event-recording.ts';
import { type FuelProgram, NO_FUEL_PROGRAM } from '#shared/fuel-programs/domain/program.ts';
import {
  fuelProgramFromRequest,
  refuseFuelProgramChange,
} from '#shared/fuel-programs/usecases/fuel-programs.ts';
import {
  DEFAULT_FUEL_TAX_TREATMENT,
  type FuelTaxTreatment,
  treatmentFor,
} from '#shared/fuel-tax/domain/treatment.ts';
import { newId } from '#shared/kernel/ids.ts';
import { type Clock, formatTimestamp } from '#shared/kernel/time.ts';
import type { Principal } from '#shared/keys/domain/api-key.ts';
import type { Stage } from '#shared/platform/config.ts';
import { notFound } from '#shared/platform/errors.ts';
import { logger } from '#shared/platform/observability.ts';
import type { CreateFleetBody, UpdateFleetBody, UpdateFleetSettingsBody } from '../api/schemas.ts';
import { fleetResource } from '../api/serializers.ts';
import {
  DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
  DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  effectiveMinArrivalFuelPercent,
  type Fleet,
  type FleetChanges,
} from '../domain/fleet.ts';
import {
  applyTruckProfilePatch,
  type TruckProfileSettings,
  UNSET_TRUCK_PROFILE,
} from '../domain/truck-profile.ts';
import type { FleetStore } from '../store/fleets.ts';
import { truckProfilePatchFromRequest } from './truck-profiles.ts';

export interface FleetDeps {
  fleets: FleetStore;
  stage: Stage;
  clock: Clock;
  /** Fan-out of the recorded event to webhook endpoints (fleet.provisioned on provisioning). */
  announce?: (event: EventEnvelope, partnerId: string | null) => Promise<unknown>;
}

/**
 * The fleet's first event (sequence 1): the partner's cue that the fleet exists. Its `data` is typed
 * by the published schema, as the other events' builders are (shared/events/domain/event-payloads.ts); it is
 * built here because it carries the fleet resource the API serializes.
 */
export function fleetProvisionedEvent(stage: Stage, fleet: Fleet, nowMs: number): EventEnvelope {
  const data: PublishedEventData<'fleet.provisioned'> = { fleet: fleetResource(fleet) };
  return buildEvent(stage, fleet.id, 1, 'fleet.provisioned', data, nowMs);
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
    defaultMinArrivalFuelPercent: body.default_min_arrival_fuel_percent ?? DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
    assumedDepartureFuelPercent:
      body.assumed_departure_fuel_percent ?? DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    fuelTaxTreatment: body.fuel_tax_treatment ?? DEFAULT_FUEL_TAX_TREATMENT,
    fuelProgram: NO_FUEL_PROGRAM,
    truckProfile: applyTruckProfilePatch(
      UNSET_TRUCK_PROFILE,
      body.truck_profile ? truckProfilePatchFromRequest(body.truck_profile) : {},
    ),
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

/** The settings both PATCH bodies carry (the partner's and the acting fleet's), as store changes. */
function settingChanges(body: UpdateFleetSettingsBody, at: string): FleetChanges {
  return {
    defaultMinArrivalFuelPercent: body.default_min_arrival_fuel_percent,
    assumedDepartureFuelPercent: body.assumed_departure_fuel_percent,
    fuelTaxTreatment: body.fuel_tax_treatment,
    fuelProgram: body.fuel_program && fuelProgramFromRequest(body.fuel_program, at),
    truckProfile:
      body.truck_profile === undefined ? undefined : truckProfilePatchFromRequest(body.truck_profile),
  };
}

export async function updateFleet(
  deps: FleetDeps,
  partnerId: string,
  fleetId: string,
  body: UpdateFleetBody,
) {
  await grantedFleet(deps, partnerId, fleetId);
  const at = formatTimestamp(deps.clock.now());
  const updated = await deps.fleets.update(
    fleetId,
    {
      name: body.name,
      externalRef: body.external_ref,
      contactEmail: body.contact_email,
      ...settingChanges(body, at),
    },
    at,
  );
  if (!updated) throw notFound(`Fleet ${fleetId}`);
  return updated;
}

/**
 * GET /v1/fleet: the fleet the call acts on (a company key's own, or the one a partner key names
 * in SVC-Fleet). The chain has already checked the key may act on it.
 */
export async function actingFleet(deps: Pick<FleetDeps, 'fleets'>, fleetId: string): Promise<Fleet> {
  const fleet = await deps.fleets.get(fleetId);
  if (!fleet) throw notFound(`Fleet ${fleetId}`);
  return fleet;
}

/**
 * PATCH /v1/fleet: the acting fleet's settings; name and contact stay the partner's to change.
 * The fuel card program is among them, for a company key only with the owner's scope.
 */
export async function updateActingFleetSettings(
  deps: FleetDeps,
  principal: Pick<Principal, 'ownerType' | 'scopes'>,
  fleetId: string,
  body: UpdateFleetSettingsBody,
): Promise<Fleet> {
  if (body.fuel_program) refuseFuelProgramChange(principal);
  const at = formatTimestamp(deps.clock.now());
  const updated = await deps.fleets.update(fleetId, settingChanges(body, at), at);
  if (!updated) throw notFound(`Fleet ${fleetId}`);
  return updated;
}

export async function deactivateFleet(deps: FleetDeps, partnerId: string, fleetId: string): Promise<void> {
  const revoked = await deps.fleets.deactivate(partnerId, fleetId, formatTimestamp(deps.clock.now()));
  if (!revoked) throw notFound(`Fleet ${fleetId}`);
}

/**
 * The min_arrival_fuel_percent in force for a guidance start or a route: the request's value, or
 * the acting fleet's default_min_arrival_fuel_percent when it has none (the fleet is read only then).
 */
export async function minArrivalFuelPercentFor(
  deps: { fleets: Pick<FleetStore, 'get'> },
  fleetId: string,
  requested: number | undefined,
): Promise<number> {
  if (requested !== undefined) return requested;
  return effectiveMinArrivalFuelPercent(undefined, await deps.fleets.get(fleetId));
}

/** The level assumed at departure for a truck that never reported one: the acting fleet's setting. */
export async function assumedDepartureFuelPercentFor(
  deps: { fleets: Pick<FleetStore, 'get'> },
  fleetId: string,
): Promise<number> {
  return assumedDepartureOf(await deps.fleets.get(fleetId));
}

/**
 * Both fuel settings a plan needs, from one read of the fleet: the margin in force (the request's
 * value wins) and the level assumed for a truck that never reported one.
 */
export async function fuelSettingsFor(
  deps: { fleets: Pick<FleetStore, 'get'> },
  fleetId: string,
  requestedMinArrival: number | undefined,
): Promise<{
  minArrivalFuelPercent: number;
  assumedDepartureFuelPercent: number;
  /** The fleet's fuel_tax_treatment (a vehicle's override is applied by the caller). */
  fleetTaxTreatment: FuelTaxTreatment;
  /** The fleet's default truck (a vehicle's own members are applied by the caller). */
  fleetTruckProfile: TruckProfileSettings | null;
  /** The fleet's fuel card program, read with the rest: a plan needs no second read of the fleet. */
  fuelProgram: FuelProgram;
}> {
  const fleet = await deps.fleets.get(fleetId);
  return {
    minArrivalFuelPercent: effectiveMinArrivalFuelPercent(requestedMinArrival, fleet),
    assumedDepartureFuelPercent: assumedDepartureOf(fleet),
    fleetTaxTreatment: treatmentFor(fleet),
    fleetTruckProfile: fleet?.truckProfile ?? null,
    fuelProgram: fleet?.fuelProgram ?? NO_FUEL_PROGRAM,
  };
}

const assumedDepartureOf = (fleet: Pick<Fleet, 'assumedDepartureFuelPercent'> | null) =>
  fleet?.assumedDepartureFuelPercent ?? DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT;
