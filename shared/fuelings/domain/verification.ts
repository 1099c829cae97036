import { type GeoPoint, haversineMiles } from '#shared/kernel/distance.ts';
import { roundToTenth } from '#shared/kernel/rounding.ts';

/*
 * A card purchase checked against the truck's own data: where the truck was, whether
 * its tank could take the gallons, and whether its level rose. Pure: the caller loads the vehicle's
 * breadcrumbs and detected fills around the purchase; nothing here reads a store or a clock.
 */

/**
 * The thresholds of purchase verification, in one place so the docs for a fuel manager and the code
 * cannot drift.
 */
export const VERIFICATION_POLICY = {
  /** A breadcrumb this close to the place puts the truck at the pumps (a truck stop's lot, as matching uses). */
  positionRadiusMiles: 0.5,
  /** …this close in time to `fueled_at`: a card's clock and a tracker's differ, and breadcrumbs come every 5–15 min. */
  positionWindowMinutes: 30,
  /**
   * Breadcrumbs in the window but all away from the place flag the purchase only when the truck could
   * not have driven from them to the place in the time between at this speed (trucks are governed at
   * 65–75 mph; 80 leaves a margin): a breadcrumb 20 mi away 25 minutes before is a truck on its way.
   */
  reachSpeedMph: 80,
  /**
   * Tank levels and detected fills are searched this far either side of `fueled_at`: the card's time is
   * the payment, the pump ran up to half an hour either side of it, and the level before the pump can be
   * one reporting interval earlier still; a detection is stamped at its stationary episode, not the payment.
   */
  levelWindowMinutes: 60,
  /**
   * The room in the tank may be exceeded by this share of the tank before a purchase is flagged: gauges
   * slosh ±2 %, cheap senders read ±3 %, so 5 % is the worst reading error with a margin.
   */
  roomTolerancePercentOfTank: 5,
  /**
   * A rise of this many points between two readings confirms a fill: the fill detection's own threshold
   * (DETECTION_POLICY.fuelingMinRisePercent), well above slosh (±3), well below a truck fill (30+).
   */
  minLevelRisePercent: 10,
  /**
   * No rise flags a purchase only when its gallons should have raised the level by this many points: the
   * confirming rise plus two readings' worst slosh (±3 each), so a real fill can never read as no rise.
   */
  noRiseFlagMinExpectedPercent: 16,
} as const;

/**
 * Why a purchase is verified, flagged or unverified, as `verification.reasons[].code` says:
 * - `at_station` (confirms): a breadcrumb within the radius of the place within the window;
 * - `away_from_station` (flags): breadcrumbs in the window, all too far from the place to have driven there;
 * - `no_breadcrumb_at_station`: breadcrumbs in the window away from the place, but the truck could have
 *   driven to it in the time between;
 * - `no_breadcrumbs_near_time`: the vehicle reported no breadcrumb within the window;
 * - `no_place`: the purchase names no station with a position and carries no position of its own;
 * - `exceeds_tank_size` (flags): more gallons than the vehicle's tank holds, alone or with the
 *   vehicle's other purchases within the level window (split purchases);
 * - `exceeds_room_in_tank` (flags): more gallons than the room in the tank at the time, plus the
 *   tolerance, alone or with the vehicle's other purchases made since that level;
 * - `tank_not_checked`: no tank size or no level, so whether the tank could take it is unknown;
 * - `level_rose` (confirms): a detected fill, or a rise between the vehicle's readings, around the time;
 * - `no_level_rise` (flags): the vehicle reported levels before and after, and they did not rise;
 * - `no_fuel_levels`: no readings on both sides of the purchase, so a rise could not be seen;
 * - `rise_not_measurable`: levels did not rise, but the purchase is too small for the tank (or the tank's
 *   size unknown) to tell a fill from slosh.
 */
export const VERIFICATION_REASON_CODES = [
  'at_station',
  'away_from_station',
  'no_breadcrumb_at_station',
  'no_breadcrumbs_near_time',
  'no_place',
  'exceeds_tank_size',
  'exceeds_room_in_tank',
  'tank_not_checked',
  'level_rose',
  'no_level_rise',
  'no_fuel_levels',
  'rise_not_measurable',
] as const;
export type VerificationReasonCode = (typeof VERIFICATION_REASON_CODES)[number];

export const VERIFICATION_STATUSES = ['verified', 'unverified', 'flagged'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export interface VerificationReason {
  code: VerificationReasonCode;
  /** A sentence with the figures a fuel manager can check. */
  detail: string;
}

export interface Verification {
  status: VerificationStatus;
  reasons: VerificationReason[];
}

export interface VerificationBreadcrumb extends GeoPoint {
  recordedAtMs: number;
  fuelLevelPercent: number | null;
}

export interface VerificationInput {
  purchase: {
    fueledAtMs: number;
    gallons: number;
    /** The catalog station's position, when the purchase names one. */
    station: GeoPoint | null;
    /** The purchase's own coordinates, used when it names no station. */
    position: GeoPoint | null;
  };
  tankSizeGallons: number | null;
  /** The vehicle's breadcrumbs around the purchase, in any order (others are ignored). */
  breadcrumbs: readonly VerificationBreadcrumb[];
  /** The vehicle's detected fills around the purchase (`gallons` null without a tank size). */
  detectedFills: readonly { fueledAtMs: number; gallons: number | null }[];
  /**
   * The vehicle's other reported purchases around this one (others are ignored), never this one
   * again: not a re-send of it, nor a purchase of the same fill (the caller tells them apart). A
   * tank filled by split purchases takes no more than one filled at once.
   */
  otherPurchases?: readonly OtherPurchase[];
}

/** Another card purchase of the same vehicle, as a reason's detail names it. */
export interface OtherPurchase {
  id: string;
  fueledAtMs: number;
  gallons: number;
}

/** What one check found: a confirmation, a flag, or why it could not be made. */
type Finding = { kind: 'confirm' | 'flag' | 'skip'; reason: VerificationReason };

const MS_PER_MINUTE = 60_000;

const confirm = (code: VerificationReasonCode, detail: string): Finding => ({
  kind: 'confirm',
  reason: { code, detail },
});
const flag = (code: VerificationReasonCode, detail: string): Finding => ({
  kind: 'flag',
  reason: { code, detail },
});
const skip = (code: VerificationReasonCode, detail: string): Finding => ({
  kind: 'skip',
  reason: { code, detail },
});

/** "12 min before the purchase", "3 min after the purchase", "at the time of the purchase". */
function relativeTime(atMs: number, fueledAtMs: number): string {
  const minutes = Math.round((atMs - fueledAtMs) / MS_PER_MINUTE);
  if (minutes === 0) return 'at the time of the purchase';
  return `${Math.abs(minutes)} min ${minutes < 0 ? 'before' : 'after'} the purchase`;
}

const within = (atMs: number, fueledAtMs: number, minutes: number): boolean =>
  Math.abs(atMs - fueledAtMs) <= minutes * MS_PER_MINUTE;

/**
 * Where was the truck: a breadcrumb within the radius of the place within the window confirms; when
 * every breadcrumb in the window is farther than the truck could have driven to the place in the time
 * between, the purchase is flagged with the nearest; otherwise there is nothing to say either way.
 */
function checkPosition(input: VerificationInput): Finding {
  const { purchase } = input;
  const place = purchase.station ?? purchase.position;
  if (place === null) {
    return skip('no_place', 'The purchase names no station with a position and carries no coordinates.');
  }
  const placeName = purchase.station !== null ? 'the station' : "the purchase's position";
  const { positionRadiusMiles, positionWindowMinutes, reachSpeedMph } = VERIFICATION_POLICY;
  const crumbs = input.breadcrumbs
    .filter((crumb) => within(crumb.recordedAtMs, purchase.fueledAtMs, positionWindowMinutes))
    .map((crumb) => ({ crumb, miles: haversineMiles(crumb, place) }))
    .sort((a, b) => a.miles - b.miles);
  const nearest = crumbs[0];
  if (nearest === undefined) {
    return skip(
      'no_breadcrumbs_near_time',
      `The vehicle reported no breadcrumb within ${positionWindowMinutes} min of the purchase.`,
    );
  }
  const at = `${roundToTenth(nearest.miles)} mi from ${placeName}, ${relativeTime(nearest.crumb.recordedAtMs, purchase.fueledAtMs)}`;
  if (nearest.miles <= positionRadiusMiles) {
    return confirm('at_station', `A breadcrumb puts the truck ${at} (within ${positionRadiusMiles} mi).`);
  }
  const reachable = crumbs.some(({ crumb, miles }) => {
    const hours = Math.abs(crumb.recordedAtMs - purchase.fueledAtMs) / 3_600_000;
    return miles - positionRadiusMiles <= reachSpeedMph * hours;
  });
  if (reachable) {
    return skip(
      'no_breadcrumb_at_station',
      `No breadcrumb within ${positionRadiusMiles} mi of ${placeName}; the nearest, ${at}, is close enough that the truck could have driven there at ${reachSpeedMph} mph.`,
    );
  }
  return flag(
    'away_from_station',
    `The truck was ${at}: farther than it could have driven at ${reachSpeedMph} mph, with ${crumbs.length} breadcrumb(s) within ${positionWindowMinutes} min, none within ${positionRadiusMiles} mi.`,
  );
}

/**
 * The tank's level at the time: the lowest reading in the level window up to `fueled_at`. A card's
 * time is usually the end of the pump, so the last reading may already be the filled tank; the lowest
 * is the level before the pump started (the tank only empties while driving), and a low slosh outlier
 * only leaves more room, never a false flag.
 */
function levelAtPurchase(input: VerificationInput): VerificationBreadcrumb | null {
  const { fueledAtMs } = input.purchase;
  let lowest: VerificationBreadcrumb | null = null;
  for (const crumb of input.breadcrumbs) {
    if (crumb.fuelLevelPercent === null || crumb.recordedAtMs > fueledAtMs) continue;
    if (!within(crumb.recordedAtMs, fueledAtMs, VERIFICATION_POLICY.levelWindowMinutes)) continue;
    if (lowest === null || crumb.fuelLevelPercent < (lowest.fuelLevelPercent ?? 100)) lowest = crumb;
  }
  return lowest;
}

/** "fueling_2 (90 gal, 5 min after the purchase)", for each. */
function namePurchases(others: readonly OtherPurchase[], fueledAtMs: number): string {
  return others
    .map(
      (other) =>
        `${other.id} (${roundToTenth(other.gallons)} gal, ${relativeTime(other.fueledAtMs, fueledAtMs)})`,
    )
    .join(', ');
}

/** The gallons of this purchase and the others that went into the same tank, and what to say of them. */
function withOthers(gallons: number, others: readonly OtherPurchase[], fueledAtMs: number) {
  const total = others.reduce((sum, other) => sum + other.gallons, gallons);
  const what =
    others.length === 0
      ? `${roundToTenth(gallons)} gal`
      : `${roundToTenth(gallons)} gal with the vehicle's other purchase${others.length === 1 ? '' : 's'} within ${VERIFICATION_POLICY.levelWindowMinutes} min, ${namePurchases(others, fueledAtMs)}, is ${roundToTenth(total)} gal, which`;
  return { total, what };
}

/**
 * Could the tank take it: no more than the tank's size, nor than the room in it at the time plus the
 * tolerance — with the vehicle's other purchases in the level window counted too (against the room,
 * those at or after the level it is measured from: an earlier one is in that level already).
 */
function checkTank(input: VerificationInput): Finding | null {
  const { gallons, fueledAtMs } = input.purchase;
  const others = (input.otherPurchases ?? [])
    .filter((other) => within(other.fueledAtMs, fueledAtMs, VERIFICATION_POLICY.levelWindowMinutes))
    .sort((a, b) => a.fueledAtMs - b.fueledAtMs);
  const tank = input.tankSizeGallons;
  if (tank === null || tank <= 0) {
    return skip(
      'tank_not_checked',
      'The vehicle has no tank size, so whether the tank could take it is unknown.',
    );
  }
  if (gallons > tank) {
    return flag(
      'exceeds_tank_size',
      `${roundToTenth(gallons)} gal is more than the vehicle's ${roundToTenth(tank)} gal tank.`,
    );
  }
  const split = withOthers(gallons, others, fueledAtMs);
  if (split.total > tank) {
    return flag(
      'exceeds_tank_size',
      `${split.what} is more than the vehicle's ${roundToTenth(tank)} gal tank.`,
    );
  }
  const level = levelAtPurchase(input);
  if (level === null || level.fuelLevelPercent === null) {
    return skip(
      'tank_not_checked',
      `${roundToTenth(gallons)} gal fits the ${roundToTenth(tank)} gal tank; no fuel level within ${VERIFICATION_POLICY.levelWindowMinutes} min before the purchase, so the room in it is unknown.`,
    );
  }
  const percent = Math.min(100, Math.max(0, level.fuelLevelPercent));
  const room = (tank * (100 - percent)) / 100;
  const tolerance = (tank * VERIFICATION_POLICY.roomTolerancePercentOfTank) / 100;
  const sinceLevel = withOthers(
    gallons,
    others.filter((other) => other.fueledAtMs >= level.recordedAtMs),
    fueledAtMs,
  );
  if (sinceLevel.total > room + tolerance) {
    return flag(
      'exceeds_room_in_tank',
      `${sinceLevel.what} is more than the room in the tank: ${roundToTenth(percent)} % full of ${roundToTenth(tank)} gal ${relativeTime(level.recordedAtMs, fueledAtMs)} leaves ${roundToTenth(room)} gal, plus a ${roundToTenth(tolerance)} gal tolerance (${VERIFICATION_POLICY.roomTolerancePercentOfTank} % of the tank).`,
    );
  }
  return null;
}

/**
 * Did the level rise: a detected fill in the level window, or a rise of the minimum between two of the
 * vehicle's readings in it (earlier to later) confirms. With readings on both sides of the purchase and
 * no such rise, the purchase is flagged only when its gallons should have raised the level by clearly
 * more than slosh; a small purchase into a big tank, or a tank of unknown size, says nothing.
 */
function checkLevelRise(input: VerificationInput): Finding {
  const { fueledAtMs, gallons } = input.purchase;
  const { levelWindowMinutes, minLevelRisePercent, noRiseFlagMinExpectedPercent } = VERIFICATION_POLICY;
  const detected = input.detectedFills
    .filter((fill) => within(fill.fueledAtMs, fueledAtMs, levelWindowMinutes))
    .sort((a, b) => Math.abs(a.fueledAtMs - fueledAtMs) - Math.abs(b.fueledAtMs - fueledAtMs))[0];
  if (detected !== undefined) {
    const amount = detected.gallons === null ? '' : ` of ${roundToTenth(detected.gallons)} gal`;
    return confirm(
      'level_rose',
      `A fill${amount} was detected ${relativeTime(detected.fueledAtMs, fueledAtMs)}.`,
    );
  }
  const readings = input.breadcrumbs
    .flatMap((crumb) =>
      crumb.fuelLevelPercent !== null && within(crumb.recordedAtMs, fueledAtMs, levelWindowMinutes)
        ? [{ atMs: crumb.recordedAtMs, percent: crumb.fuelLevelPercent }]
        : [],
    )
    .sort((a, b) => a.atMs - b.atMs);
  let rise = Number.NEGATIVE_INFINITY;
  let from = readings[0];
  let to = readings[0];
  let lowest = readings[0];
  for (const reading of readings) {
    if (lowest === undefined || reading.percent < lowest.percent) lowest = reading;
    if (lowest !== undefined && reading.percent - lowest.percent > rise) {
      rise = reading.percent - lowest.percent;
      from = lowest;
      to = reading;
    }
  }
  if (from !== undefined && to !== undefined && rise >= minLevelRisePercent) {
    return confirm(
      'level_rose',
      `The fuel level rose ${roundToTenth(rise)} points, from ${roundToTenth(from.percent)} % ${relativeTime(from.atMs, fueledAtMs)} to ${roundToTenth(to.percent)} % ${relativeTime(to.atMs, fueledAtMs)}.`,
    );
  }
  const before = readings.some((reading) => reading.atMs <= fueledAtMs);
  const after = readings.some((reading) => reading.atMs >= fueledAtMs);
  if (!before || !after) {
    return skip(
      'no_fuel_levels',
      readings.length === 0
        ? `The vehicle reported no fuel level within ${levelWindowMinutes} min of the purchase.`
        : `The vehicle reported fuel levels only ${before ? 'before' : 'after'} the purchase, so a rise could not be seen.`,
    );
  }
  const seen = `${readings.length} readings within ${levelWindowMinutes} min of the purchase rose at most ${roundToTenth(Math.max(0, rise))} points`;
  const tank = input.tankSizeGallons;
  if (tank === null || tank <= 0) {
    return skip(
      'rise_not_measurable',
      `${seen}; the tank's size is unknown, so the rise the purchase should show is too.`,
    );
  }
  const expected = (gallons / tank) * 100;
  if (expected < noRiseFlagMinExpectedPercent) {
    return skip(
      'rise_not_measurable',
      `${seen}; ${roundToTenth(gallons)} gal into a ${roundToTenth(tank)} gal tank is ${roundToTenth(expected)} points, too little to tell from slosh (${noRiseFlagMinExpectedPercent} needed).`,
    );
  }
  return flag(
    'no_level_rise',
    `${seen} (${minLevelRisePercent} confirm a fill); ${roundToTenth(gallons)} gal into a ${roundToTenth(tank)} gal tank should have raised it ${roundToTenth(expected)} points.`,
  );
}

/**
 * A card purchase checked against the truck: any flag makes it `flagged` (the flags are its reasons,
 * then what was confirmed, for context); else a confirmation makes it `verified` (the confirmations are); else it is `unverified`, with why
 * each check could not be made — never a guess.
 */
export function verifyPurchase(input: VerificationInput): Verification {
  const findings = [checkPosition(input), checkTank(input), checkLevelRise(input)].filter(
    (finding): finding is Finding => finding !== null,
  );
  const of = (kind: Finding['kind']) => findings.filter((f) => f.kind === kind).map((f) => f.reason);
  const flags = of('flag');
  const confirmations = of('confirm');
  if (flags.length > 0) return { status: 'flagged', reasons: [...flags, ...confirmations] };
  if (confirmations.length > 0) return { status: 'verified', reasons: confirmations };
  return { status: 'unverified', reasons: of('skip') };
}
