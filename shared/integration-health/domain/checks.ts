/**
 * The integration health checks (docs/integration-health.md): pure functions of the figures the
 * scorecard gathers from maintained aggregates. Each check publishes its id, title and target, and
 * judges the figures `pass`, `warn` or `fail` with a plain-words observation and detail.
 */

export type CheckStatus = 'pass' | 'warn' | 'fail';

export type CheckId =
  | 'breadcrumb_cadence'
  | 'fuel_level_coverage'
  | 'vehicle_profiles'
  | 'rejected_items'
  | 'silent_vehicles'
  | 'webhook_delivery'
  | 'guidance_in_use'
  | 'fuelings_reported'
  | 'purchases_verifiable'
  | 'key_age';

export interface CheckDefinition {
  id: CheckId;
  title: string;
  /** The published target, in words. */
  target: string;
  /** Points of the 0–100 score: a pass earns them all, a warn half, a fail none. */
  weight: number;
  /** What to do when the check does not pass (next_steps). */
  action: string;
}

/** The spec's breadcrumb cadence: every 1–5 minutes. */
export const CADENCE_MINUTES = { min: 1, max: 5, failAbove: 15 } as const;
export const FUEL_LEVEL_COVERAGE = { pass: 0.9, warn: 0.5 } as const;
export const PROFILE_GAPS = { warn: 0.1 } as const;
export const REJECTED_RATE = { pass: 0.01, warn: 0.05 } as const;
export const SILENT_SHARE = { warn: 0.2 } as const;
export const WEBHOOK_SUCCESS_RATE = 0.99;
/** Below this success rate most events are lost: fail rather than warn. */
export const WEBHOOK_FAIL_BELOW = 0.5;
export const FUELING_LOOKBACK_DAYS = 7;
/**
 * Under this share of the checked purchases the trucks' data could check (verified or flagged, not
 * `unverified`), the check warns.
 */
export const CHECKABLE_SHARE = { warn: 0.5 } as const;
export const KEY_AGE_DAYS = { pass: 90, warn: 180 } as const;

/** In the order the scorecard lists them; the weights sum to 100. */
export const CHECKS: readonly CheckDefinition[] = [
  {
    id: 'breadcrumb_cadence',
    title: 'Breadcrumb cadence',
    target: `a breadcrumb every ${CADENCE_MINUTES.min}–${CADENCE_MINUTES.max} minutes from each reporting vehicle`,
    weight: 20,
    action:
      'Send each vehicle’s position every 1–5 minutes (batch several vehicles per POST /v1/locations request).',
  },
  {
    id: 'fuel_level_coverage',
    title: 'Breadcrumbs carry a fuel level',
    target: `at least ${FUEL_LEVEL_COVERAGE.pass * 100}% of breadcrumbs in the window have fuel_level_percent`,
    weight: 15,
    action:
      'Include fuel_level_percent from the tank sensor in every breadcrumb; without it fuel is estimated from mpg.',
  },
  {
    id: 'vehicle_profiles',
    title: 'Vehicles have tank size and mpg',
    target: 'every active vehicle has tank_size_gallons and estimated_mpg',
    weight: 10,
    action: 'Set tank_size_gallons and estimated_mpg on each vehicle with PATCH /v1/vehicles/{id}.',
  },
  {
    id: 'rejected_items',
    title: 'Rejected breadcrumbs',
    target: `under ${REJECTED_RATE.pass * 100}% of breadcrumbs sent in the window are rejected`,
    weight: 10,
    action:
      'Read the per-item `results` of POST /v1/locations and fix what the rejected items’ codes and hints name.',
  },
  {
    id: 'silent_vehicles',
    title: 'Active vehicles reporting',
    target: 'every active vehicle reported a position in the last 24 hours',
    weight: 15,
    action: 'Send positions for every active vehicle, or deactivate the vehicles that are off the road.',
  },
  {
    id: 'webhook_delivery',
    title: 'A webhook endpoint subscribed and delivering',
    target: `at least one active endpoint, and at least ${WEBHOOK_SUCCESS_RATE * 100}% of delivery attempts in the window answered 2xx`,
    weight: 10,
    action:
      'Register an endpoint with POST /v1/webhooks and answer 2xx quickly; try it with POST /v1/integration/test.',
  },
  {
    id: 'guidance_in_use',
    title: 'Guidance in use',
    target: 'at least one vehicle has an active guidance session',
    weight: 6,
    action: 'Start guidance for vehicles on the road with POST /v1/vehicles/{vehicleId}/guidance.',
  },
  {
    id: 'fuelings_reported',
    title: 'Fuelings recorded',
    target: `at least one fueling recorded in the last ${FUELING_LOOKBACK_DAYS} days`,
    weight: 5,
    action: 'Report each fill-up with POST /v1/fuelings so savings and adherence can be measured.',
  },
  {
    id: 'purchases_verifiable',
    title: 'Card purchases the truck’s data could check',
    target: `at least ${CHECKABLE_SHARE.warn * 100}% of the purchases checked in the last ${FUELING_LOOKBACK_DAYS} days verified or flagged by the truck’s own data (not unverified)`,
    weight: 4,
    action:
      'Send breadcrumbs with fuel_level_percent every few minutes around fill-ups, set tank_size_gallons on each vehicle and name the station_id of each POST /v1/fuelings, so every card purchase can be checked against its truck; look into the flagged ones listed in the savings report (verification.exceptions).',
  },
  {
    id: 'key_age',
    title: 'API key age',
    target: `the calling key was created at most ${KEY_AGE_DAYS.pass} days ago`,
    weight: 5,
    action: 'Rotate the API key: create a new one, switch to it, then revoke the old one.',
  },
];

export const CHECK_BY_ID: Readonly<Record<CheckId, CheckDefinition>> = Object.fromEntries(
  CHECKS.map((check) => [check.id, check]),
) as Record<CheckId, CheckDefinition>;

/** Everything the checks judge; gathered by the use case from aggregates (never raw history). */
export interface HealthFigures {
  vehiclesActive: number;
  vehiclesReporting24h: number;
  vehiclesWithFuelLevel: number;
  vehiclesMissingProfile: number;
  breadcrumbs: number;
  breadcrumbsWithLevel: number;
  rejectedItems: number;
  /** Gaps between consecutive breadcrumbs of a vehicle measured at ingest: their sum and count. */
  gapMsSum: number;
  gapCount: number;
  webhooks: {
    activeEndpoints: number;
    attempts: number;
    succeeded: number;
    failingEndpoints: number;
  };
  vehiclesWithGuidance: number;
  fuelingsRecent: number;
  /** Reported purchases of the same days, by their verdict (the rest were recorded before purchases were checked). */
  purchases: PurchaseVerificationFigures;
  /** Age of the calling key in days; null when the key's creation time is unknown. */
  keyAgeDays: number | null;
}

export interface PurchaseVerificationFigures {
  reported: number;
  verified: number;
  unverified: number;
  flagged: number;
}

/** verified ÷ reported, to three decimals; null with nothing reported. */
export function verifiedShare(purchases: PurchaseVerificationFigures): number | null {
  if (purchases.reported === 0) return null;
  return Math.round((purchases.verified / purchases.reported) * 1000) / 1000;
}

/** Reported purchases recorded before purchases were checked: no verdict at all. */
export const notChecked = (purchases: PurchaseVerificationFigures): number =>
  Math.max(0, purchases.reported - purchases.verified - purchases.unverified - purchases.flagged);

/**
 * The share of purchases the trucks' data could check: (verified + flagged) ÷ (reported −
 * not_checked), to three decimals; null when none was checked. A flagged purchase was checked (the
 * data contradicts it: fraud is not a gap in the integration); an unverified one was not (nothing
 * to check it against); one recorded before checks existed is in neither.
 */
export function checkableShare(purchases: PurchaseVerificationFigures): number | null {
  const checked = purchases.reported - notChecked(purchases);
  if (checked <= 0) return null;
  return Math.round(((purchases.verified + purchases.flagged) / checked) * 1000) / 1000;
}

export interface CheckResult {
  id: CheckId;
  title: string;
  status: CheckStatus;
  observed: string;
  target: string;
  detail: string;
}

const percent = (ratio: number) => `${Math.round(ratio * 1000) / 10}%`;
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

type Judgement = Pick<CheckResult, 'status' | 'observed' | 'detail'>;

/**
 * Minutes between breadcrumbs while vehicles were reporting: the mean gap between consecutive
 * breadcrumbs of a vehicle, measured at ingest across requests (ingest-tally.ts), gaps over an hour
 * (a parked truck, a device switched off) left out. A truck that reports every minute for three
 * hours of the day reads 1 minute, not the day's 1,440 minutes ÷ 180 breadcrumbs; the hours it was
 * silent are the silent-vehicles check's business. Only when no gap was measured (each vehicle sent
 * one breadcrumb, or none within an hour of another) is the day's average the figure, and then it
 * is sparse by construction.
 */
export function cadenceMinutes(f: HealthFigures): { minutes: number; measured: boolean } | null {
  if (f.breadcrumbs === 0 || f.vehiclesReporting24h === 0) return null;
  if (f.gapCount > 0) return { minutes: f.gapMsSum / f.gapCount / 60_000, measured: true };
  return { minutes: (24 * 60 * f.vehiclesReporting24h) / f.breadcrumbs, measured: false };
}

function breadcrumbCadence(f: HealthFigures): Judgement {
  const cadence = cadenceMinutes(f);
  if (!cadence) {
    return {
      status: 'fail',
      observed: 'no breadcrumbs',
      detail: 'No breadcrumbs were accepted in the window, so nothing can be guided.',
    };
  }
  const minutes = Math.round(cadence.minutes * 10) / 10;
  const how = cadence.measured
    ? 'between consecutive breadcrumbs of a vehicle while it was reporting (gaps over an hour left out)'
    : 'per reporting vehicle over the day (breadcrumbs ÷ vehicles reporting; no vehicle sent two breadcrumbs within an hour)';
  const observed = `${minutes} min`;
  const about = `About ${minutes} minute${minutes === 1 ? '' : 's'} ${how}`;
  if (cadence.minutes > CADENCE_MINUTES.failAbove) {
    return {
      status: 'fail',
      observed,
      detail: `${about}: too sparse to detect fuelings or follow stops.`,
    };
  }
  if (cadence.minutes > CADENCE_MINUTES.max) {
    return {
      status: 'warn',
      observed,
      detail: `${about}: sparser than every ${CADENCE_MINUTES.max} minutes.`,
    };
  }
  if (cadence.minutes < CADENCE_MINUTES.min) {
    return {
      status: 'warn',
      observed,
      detail: `${about}: more often than every minute costs requests without better guidance.`,
    };
  }
  return { status: 'pass', observed, detail: `${about}.` };
}

function fuelLevelCoverage(f: HealthFigures): Judgement {
  if (f.breadcrumbs === 0) {
    return {
      status: 'warn',
      observed: 'no breadcrumbs',
      detail: 'Not measured: no breadcrumbs in the window.',
    };
  }
  const ratio = f.breadcrumbsWithLevel / f.breadcrumbs;
  const status =
    ratio >= FUEL_LEVEL_COVERAGE.pass ? 'pass' : ratio >= FUEL_LEVEL_COVERAGE.warn ? 'warn' : 'fail';
  return {
    status,
    observed: percent(ratio),
    detail: `${f.breadcrumbsWithLevel} of ${plural(f.breadcrumbs, 'breadcrumb')} carried fuel_level_percent.`,
  };
}

function vehicleProfiles(f: HealthFigures): Judgement {
  if (f.vehiclesActive === 0) {
    return {
      status: 'fail',
      observed: 'no active vehicles',
      detail: 'Create vehicles with POST /v1/vehicles.',
    };
  }
  const missing = f.vehiclesMissingProfile;
  const status = missing === 0 ? 'pass' : missing / f.vehiclesActive <= PROFILE_GAPS.warn ? 'warn' : 'fail';
  return {
    status,
    observed: `${plural(missing, 'vehicle')} missing`,
    detail:
      missing === 0
        ? `All ${plural(f.vehiclesActive, 'active vehicle')} have a tank size and mpg.`
        : `${missing} of ${plural(f.vehiclesActive, 'active vehicle')} lack tank_size_gallons or estimated_mpg, so range and fill-ups are guessed.`,
  };
}

function rejectedItems(f: HealthFigures): Judgement {
  const sent = f.breadcrumbs + f.rejectedItems;
  if (sent === 0) {
    return {
      status: 'warn',
      observed: 'no breadcrumbs',
      detail: 'Not measured: no breadcrumbs sent in the window.',
    };
  }
  const ratio = f.rejectedItems / sent;
  const status = ratio < REJECTED_RATE.pass ? 'pass' : ratio < REJECTED_RATE.warn ? 'warn' : 'fail';
  return {
    status,
    observed: percent(ratio),
    detail: `${f.rejectedItems} of ${plural(sent, 'item')} sent were rejected.`,
  };
}

function silentVehicles(f: HealthFigures): Judgement {
  if (f.vehiclesActive === 0) {
    return { status: 'fail', observed: 'no active vehicles', detail: 'No active vehicles to hear from.' };
  }
  const silent = Math.max(0, f.vehiclesActive - f.vehiclesReporting24h);
  const status = silent === 0 ? 'pass' : silent / f.vehiclesActive <= SILENT_SHARE.warn ? 'warn' : 'fail';
  return {
    status,
    observed: `${silent} silent`,
    detail: `${f.vehiclesReporting24h} of ${plural(f.vehiclesActive, 'active vehicle')} reported in the last 24 hours.`,
  };
}

function webhookDelivery(f: HealthFigures): Judgement {
  const w = f.webhooks;
  if (w.activeEndpoints === 0) {
    return {
      status: 'fail',
      observed: 'no active endpoint',
      detail: 'No active webhook endpoint: guidance changes and fuel alerts reach nobody.',
    };
  }
  if (w.attempts === 0) {
    return {
      status: 'pass',
      observed: `${plural(w.activeEndpoints, 'active endpoint')}, no deliveries`,
      detail: 'Subscribed; nothing was delivered in the window.',
    };
  }
  const rate = w.succeeded / w.attempts;
  const healthy = rate >= WEBHOOK_SUCCESS_RATE && w.failingEndpoints === 0;
  return {
    status: rate < WEBHOOK_FAIL_BELOW ? 'fail' : healthy ? 'pass' : 'warn',
    observed: `${percent(rate)} delivered`,
    detail: `${w.succeeded} of ${plural(w.attempts, 'delivery attempt')} answered 2xx; ${plural(w.failingEndpoints, 'endpoint')} failing.`,
  };
}

function guidanceInUse(f: HealthFigures): Judgement {
  return {
    status: f.vehiclesWithGuidance > 0 ? 'pass' : 'warn',
    observed: `${plural(f.vehiclesWithGuidance, 'vehicle')} guided`,
    detail:
      f.vehiclesWithGuidance > 0
        ? `${plural(f.vehiclesWithGuidance, 'vehicle')} have an active guidance session.`
        : 'No vehicle has an active guidance session.',
  };
}

function fuelingsReported(f: HealthFigures): Judgement {
  return {
    status: f.fuelingsRecent > 0 ? 'pass' : 'warn',
    observed: plural(f.fuelingsRecent, 'fueling'),
    detail: `${plural(f.fuelingsRecent, 'fueling')} recorded (reported or detected) in the last ${FUELING_LOOKBACK_DAYS} days.`,
  };
}

/**
 * What the integration lets the trucks' data check: a purchase verified or flagged was checked (a
 * flagged one is the data working, not a gap), an `unverified` one could not be (no breadcrumbs,
 * levels or tank size around it). Purchases recorded before checks existed, and no purchases at
 * all, say nothing: the fleet is not marked down for them.
 */
function purchasesVerifiable(f: HealthFigures): Judgement {
  const { reported, verified, unverified, flagged } = f.purchases;
  const share = checkableShare(f.purchases);
  if (share === null) {
    return {
      status: 'pass',
      observed: reported === 0 ? 'no purchases reported' : 'no purchases checked',
      detail:
        reported === 0
          ? `No card purchase was reported in the last ${FUELING_LOOKBACK_DAYS} days: nothing to verify.`
          : `${plural(reported, 'card purchase')} reported in the last ${FUELING_LOOKBACK_DAYS} days, all recorded before purchases were checked: nothing to judge.`,
    };
  }
  const unchecked = notChecked(f.purchases);
  return {
    status: share >= CHECKABLE_SHARE.warn ? 'pass' : 'warn',
    observed: `${percent(share)} checkable`,
    detail: `${verified + flagged} of ${plural(reported - unchecked, 'purchase')} reported in the last ${FUELING_LOOKBACK_DAYS} days could be checked against the truck’s own data (${verified} verified, ${flagged} flagged); ${unverified} had nothing to check them against (unverified)${unchecked > 0 ? `; ${unchecked} recorded before purchases were checked are left out` : ''}.`,
  };
}

function keyAge(f: HealthFigures): Judgement {
  if (f.keyAgeDays === null) {
    return { status: 'warn', observed: 'unknown', detail: 'The calling key’s creation time is not known.' };
  }
  const days = Math.floor(f.keyAgeDays);
  const status = days <= KEY_AGE_DAYS.pass ? 'pass' : days <= KEY_AGE_DAYS.warn ? 'warn' : 'fail';
  return {
    status,
    observed: `${plural(days, 'day')}`,
    detail: `The calling key was created ${plural(days, 'day')} ago.`,
  };
}

const JUDGES: Record<CheckId, (f: HealthFigures) => Judgement> = {
  breadcrumb_cadence: breadcrumbCadence,
  fuel_level_coverage: fuelLevelCoverage,
  vehicle_profiles: vehicleProfiles,
  rejected_items: rejectedItems,
  silent_vehicles: silentVehicles,
  webhook_delivery: webhookDelivery,
  guidance_in_use: guidanceInUse,
  fuelings_reported: fuelingsReported,
  purchases_verifiable: purchasesVerifiable,
  key_age: keyAge,
};

/** Every check, in published order. */
export function runChecks(figures: HealthFigures): CheckResult[] {
  return CHECKS.map((check) => ({
    id: check.id,
    title: check.title,
    target: check.target,
    ...JUDGES[check.id](figures),
  }));
}
