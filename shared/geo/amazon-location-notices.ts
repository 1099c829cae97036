import type { Route, RouteVehicleNotice, RouteViolatedConstraints } from '@aws-sdk/client-geo-routes';
import { type AmazonTruck, CM_PER_INCH, KG_PER_POUND } from './amazon-location-truck.ts';

/**
 * Amazon Location answers with its best route even when every route breaks a restriction for
 * the truck, and says so in a leg notice (`Violated…`, impact High). Such a route is refused: a
 * 13 ft 6 in truck must never be sent under a 12 ft 6 in bridge because it was the only way.
 *
 * Not refused:
 * - Low-impact notices (the service's own word: they "can be safely ignored").
 * - `Potential…` notices: the service could not tell whether a restriction applies (a
 *   time-dependent weight limit, a turn it has no data for); the route is legal as far as it knows.
 * - `ViolatedStartDirection`: the route starts against the truck's heading (a turn at the first
 *   exit), which breaks no restriction.
 * - Route-level notices (`TravelTimeExceedsDriverWorkHours`, `MainLanguageNotFound`): about the
 *   trip, not the roads.
 */
export function isRefusedNotice(notice: RouteVehicleNotice): boolean {
  const code = notice.Code ?? '';
  // An absent impact on a Violated… code is read as High: doubt goes to the bridge.
  return code.startsWith('Violated') && code !== 'ViolatedStartDirection' && notice.Impact !== 'Low';
}

/** What each refused code means, worded for an integrator reading a 502. */
const RESTRICTION_NAMES: Readonly<Record<string, string>> = {
  ViolatedVehicleRestriction: 'a restriction for this truck',
  ViolatedBlockedRoad: 'a blocked road',
  ViolatedZoneRestriction: 'a restricted zone',
  ViolatedTurnRestriction: 'a turn restriction',
  ViolatedEmergencyGate: 'an emergency gate',
  ViolatedCarpool: 'a carpool lane',
};

/**
 * One sentence per refused notice of the route's legs, empty when the route is acceptable, e.g.
 * `a restriction for this truck, "Low clearance": height limit 12 ft 6 in, the truck is 13 ft 6 in`.
 */
export function refusedNoticeSentences(route: Route, truck: AmazonTruck): string[] {
  const sentences: string[] = [];
  for (const leg of route.Legs ?? []) {
    const notices = leg.VehicleLegDetails?.Notices ?? [];
    for (const notice of notices) {
      if (!isRefusedNotice(notice)) continue;
      const name = RESTRICTION_NAMES[notice.Code ?? ''] ?? avoidanceName(notice.Code ?? 'Violated');
      const details = (notice.Details ?? []).map((detail) => {
        const limits = detail.ViolatedConstraints
          ? describeConstraints(detail.ViolatedConstraints, truck)
          : [];
        const title = detail.Title ? `"${detail.Title}"` : '';
        return [title, limits.join(', ')].filter((part) => part !== '').join(': ');
      });
      const said = details.filter((detail) => detail !== '');
      sentences.push(said.length > 0 ? `${name}, ${said.join('; ')}` : name);
    }
  }
  return [...new Set(sentences)];
}

/** `ViolatedAvoidTunnel` → `an avoided tunnel`; the route was asked to avoid it and could not. */
function avoidanceName(code: string): string {
  const what = code
    .replace(/^ViolatedAvoid/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return code.startsWith('ViolatedAvoid') ? `an avoided ${what}` : `a restriction (${code})`;
}

/**
 * The broken limits in the API's US units, beside the truck's own figure where it has one. The
 * reference gives no unit for MaxHeight, MaxWidth and MaxLength; they are read as centimetres, the
 * unit of the request's dimensions and of MaxKpraLength beside them.
 */
function describeConstraints(constraints: RouteViolatedConstraints, truck: AmazonTruck): string[] {
  const limits: string[] = [];
  if (constraints.MaxHeight !== undefined) {
    limits.push(
      `height limit ${feetAndInches(constraints.MaxHeight)}, the truck is ${feetAndInches(truck.heightCm)}`,
    );
  }
  if (constraints.MaxWidth !== undefined) {
    limits.push(`width limit ${inches(constraints.MaxWidth)}, the truck is ${inches(truck.widthCm)}`);
  }
  if (constraints.MaxLength !== undefined) {
    limits.push(
      `length limit ${feetAndInches(constraints.MaxLength)}, the truck is ${feetAndInches(truck.lengthCm)}`,
    );
  }
  if (constraints.MaxWeight?.Value !== undefined) {
    limits.push(
      `weight limit ${pounds(constraints.MaxWeight.Value)}, the truck is ${pounds(truck.grossWeightKg)}`,
    );
  }
  if (constraints.MaxWeightPerAxle !== undefined) {
    limits.push(`axle weight limit ${pounds(constraints.MaxWeightPerAxle)}`);
  }
  if (constraints.AllHazardsRestricted) limits.push('no hazardous cargo allowed');
  const cargo = constraints.HazardousCargos ?? [];
  if (cargo.length > 0) limits.push(`closed to ${cargo.map(snakeCase).join(', ')} cargo`);
  if (constraints.TimeDependent) limits.push('at certain times');
  return limits;
}

/** `PoisonousInhalation` → `poison_inhalation`, the API's word for it. */
function snakeCase(amazon: string): string {
  if (amazon === 'PoisonousInhalation') return 'poison_inhalation';
  return amazon.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

function feetAndInches(cm: number): string {
  const total = Math.round(cm / CM_PER_INCH);
  const rest = total % 12;
  return `${Math.floor(total / 12)} ft${rest > 0 ? ` ${rest} in` : ''}`;
}

function inches(cm: number): string {
  return `${Math.round(cm / CM_PER_INCH)} in`;
}

function pounds(kg: number): string {
  return `${Math.round(kg / KG_PER_POUND).toLocaleString('en-US')} lb`;
}
