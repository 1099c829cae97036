import type { FuelProgramRule } from '#shared/fuel-programs/domain/program.ts';
import type { FuelProgramSource } from '#shared/fuel-programs/usecases/fuel-programs.ts';
import { SAVINGS_METHODOLOGY_ANCHOR } from '#shared/fuelings/domain/methodology.ts';
import { daysOf, type ReportPeriod, reportPeriod } from '#shared/fuelings/domain/period.ts';
import { FUELING_POLICY } from '#shared/fuelings/domain/policy.ts';
import {
  addFigures,
  NO_FIGURES,
  type PublishedFigures,
  publishFigures,
  publishProgramSpend,
  type SavingsFigures,
  verificationCounts,
} from '#shared/fuelings/domain/savings.ts';
import type { FlaggedPurchaseReader } from '#shared/fuelings/store/flagged-purchases.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { SimulationStore } from '#shared/sandbox/store/sandbox-simulations.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import type { VehicleStore } from '#shared/vehicles/store/vehicles.ts';
import { findVehicle } from '#shared/vehicles/usecases/vehicles.ts';
import type { SavingsDayRow, SavingsDayStore } from '../store/savings-days.ts';

export interface SavingsReportDeps {
  vehicles: Pick<VehicleStore, 'get' | 'idForExternalRef'>;
  savingsDays: SavingsDayStore;
  /** The period's flagged purchases, newest first (the verification section's exceptions). */
  flagged: FlaggedPurchaseReader;
  /** The program in force, whose rule the fuel_program section names. */
  fuelPrograms: FuelProgramSource;
  now: () => number;
  /** On the sandbox stage: a twin's report runs on its simulation's clock (its test clock). */
  simulations?: Pick<SimulationStore, 'get'> | undefined;
}

/**
 * Where the methodology is published: the guide's section answered alone (public, Markdown, the
 * guide's own function and route — no route of its own on a stack near its resource limit).
 */
export const METHODOLOGY_PATH = `/v1/llms.txt?section=${SAVINGS_METHODOLOGY_ANCHOR}`;

/** Flagged purchases a report lists at most: a list to act on, not an export (GET /v1/fuelings has them all). */
export const MAX_EXCEPTIONS = 50;

/** Published with every report, so a reader never has to guess what a figure means. */
export const SAVINGS_DEFINITIONS = {
  period:
    "The report covers whole UTC days: from the day of `from` through the day of `to` (default: the 30 days ending today, on a sandbox fleet's simulation clock when it runs ahead), at most 366.",
  fuelings:
    'Fills made in the period, each counted once: a detected fill merged into a reported one counts as the reported one.',
  gallons:
    'Gallons bought in those fills (a reported fill’s own figure; a detection’s when nothing was reported).',
  fuel_tax_treatment:
    '`ifta`: prices net of the state diesel tax credited on the fleet’s IFTA return (pump − discount − state tax); `pump`: pump − discount; `mixed` when the period’s fills were recorded under both (a vehicle’s override, or the setting changed); null without a priced fill.',
  spend_usd:
    'Cash paid for fills with a known price: total_usd when reported, else net price × gallons; a detected fill at a recommended stop is priced at that stop’s prices, other detections have no price.',
  effective_spend_usd:
    'spend_usd − the state tax credited back (state tax × gallons under `ifta`, nothing under `pump`): what the fuel really cost.',
  counterfactual_spend_usd:
    'What the same gallons would have cost without our advice, with the fleet’s card: counterfactual net price × gallons per fill. The counterfactual of a purchase is the mean price (net of the fleet’s discount and of the credited tax) of the stations the truck could have bought at instead — from its previous purchase point to where its fuel ran out — kept with the recommendation when it was shown. A fill takes the counterfactual of the recommendation it followed, else of the one it passed over (the stop the truck was heading to at the fill), else its own price (no saving claimed). A fill recorded before counterfactuals were kept counts at its own effective spend.',
  savings_usd:
    'The saving of the decision — where to buy: counterfactual_spend_usd − effective_spend_usd, i.e. (counterfactual net price − effective price paid) × gallons per fill; 0 for a fill with no recommendation; negative when a fill cost more than the corridor’s mean. The same measure as a route’s or trip’s `savings.usd`. The fleet’s card is not in it (card_savings_usd). Each fill is rounded to the cent once, so rows and totals add up exactly.',
  routing_savings_usd:
    'Equal to savings_usd: the part of the saving from where the fleet bought, named as on routes and trips.',
  card_savings_usd:
    '(counterfactual pump price − counterfactual net price) × gallons: what the fleet’s card discount is worth on the stations the truck could have used. Shown beside savings_usd, never in it: the card saves that wherever the truck buys. 0 for fills recorded before counterfactuals were kept.',
  savings_usd_per_gallon:
    'savings_usd ÷ the gallons of fills priced against a counterfactual (fills recorded before counterfactuals were kept are not in it); null when there are none.',
  missed_savings_usd:
    'For fills made elsewhere while a recommendation stood (or at most ' +
    `${FUELING_POLICY.passedOverGraceMinutes} minutes after it was withdrawn): (effective price paid − the recommended stop’s effective price) × gallons, never below 0.`,
  recommended_stops: `Recommended stops counted once each: withdrawn from the plan (passed, stopped at, or the session ended) while the truck was within ${FUELING_POLICY.dueWithinMiles} road miles of them, followed by a fill, or passed over — the stop the driver was heading to while a fill was made elsewhere; counted on the UTC day of the withdrawal or of the fill.`,
  followed_stops: `Recommended stops a fill matched: a fill (reported or detected) that names the station or lies within ${FUELING_POLICY.matchRadiusMiles} miles of it, made while the stop stood or at most ${FUELING_POLICY.matchWindowHours} hours after it was withdrawn (judged on the fill's own time), and no more than ${FUELING_POLICY.matchEarlyMinutes} minutes before it was recommended.`,
  adherence_rate:
    'followed_stops ÷ recommended_stops (0–1): every fill counts, a fill elsewhere while a stop stood is advice not followed; null when nothing was recommended.',
  fuelings_without_recommendation:
    'Fills judged against no recommendation at all (neither followed nor passed over), by why: `no_guidance` (no stop recommended to the vehicle stood within the hours before), `outside_window` (at a station it was recommended, outside the window), `no_position` (no station and no position: where it was is unknown), `not_at_recommended_station` (recommendations were withdrawn before the fill, none standing), `no_stop_due` (only stops further on stood, none yet the stop the truck was heading to).',
  fuel_program:
    'Fills split by the fleet’s fuel card program as it stood when each was recorded: `in_program` at a chain the program accepted, `off_program` at one it did not, `unknown` with no station named or while the program had no rule (`none`). spend_usd as above (pump spend: cash paid). `rule` is the program in force now.',
  verification:
    'Reported purchases (POST /v1/fuelings) of the period by their check against the truck’s own data: `verified`, `unverified` (nothing to check against), `flagged` (the truck’s data disagrees), `not_checked` (recorded before purchases were checked). `exceptions` lists the flagged ones, newest first, at most ' +
    `${MAX_EXCEPTIONS}; \`exceptions_truncated\` says more were flagged than listed.`,
  totals:
    'The sum of the vehicle rows (savings_usd_per_gallon, fuel_tax_treatment and adherence_rate are recomputed from the sums).',
} as const;

/** Vehicle reads in flight at once for rows without an external_ref. */
const VEHICLE_READS_AT_ONCE = 16;

type VehicleRow = { vehicle_id: string; external_ref: string | null } & PublishedFigures;

/**
 * GET /v1/reports/savings: sums the pre-aggregated day items of the period (shared/reports/store/savings-days.ts:
 * a few key ranges, or the vehicle's shard of each day): per vehicle, then the fleet totals as the sum of
 * those rows. Vehicles with nothing in the period are not listed.
 */
export async function savingsReport(
  deps: SavingsReportDeps,
  fleetId: string,
  query: { from?: string | undefined; to?: string | undefined; vehicle_id?: string | undefined },
  /** Where the methodology is published (the stage's base URL + METHODOLOGY_PATH). */
  methodologyUrl: string = METHODOLOGY_PATH,
) {
  const period = requestedPeriod(query, await reportNow(deps, fleetId));
  let rows: SavingsDayRow[];
  let vehicleId: string | undefined;
  const program = deps.fuelPrograms.get(fleetId);
  if (query.vehicle_id !== undefined) {
    const vehicle = await findVehicle(deps, fleetId, query.vehicle_id);
    vehicleId = vehicle.id;
    rows = await deps.savingsDays.vehicleDays(fleetId, vehicle.id, daysOf(period));
    rows = rows.map((row) => ({ ...row, externalRef: vehicle.externalRef }));
  } else {
    rows = await deps.savingsDays.fleetDays(fleetId, daysOf(period));
  }
  // The day items count the flagged purchases: the index is read only when there are some.
  const flagged = rows.reduce((sum, row) => sum + row.figures.flaggedFuelings, 0);
  const [vehicles, exceptions] = await Promise.all([
    vehicleRows(deps, fleetId, rows),
    flagged > 0
      ? deps.flagged.newest(
          fleetId,
          { fromDay: period.fromDay, toDay: period.toDay, vehicleId },
          Math.min(flagged, MAX_EXCEPTIONS),
        )
      : [],
  ]);
  return report(period, vehicles, methodologyUrl, { rule: (await program).rule, exceptions });
}

/**
 * "Now" for the report: the wall clock, or a sandbox twin's simulation clock when an advance ran
 * it ahead, so its default period and the bounds it judges follow the sandbox's own time.
 */
export async function reportNow(deps: Pick<SavingsReportDeps, 'now' | 'simulations'>, fleetId: string) {
  const wallMs = deps.now();
  const simulation = deps.simulations ? await deps.simulations.get(fleetId) : null;
  return simulation ? Math.max(wallMs, simulation.simulatedNowMs) : wallMs;
}

/** The query's period, or the 422 naming the bound to fix (also what the published example shows). */
export function requestedPeriod(
  query: { from?: string | undefined; to?: string | undefined },
  nowMs: number,
) {
  const judged = reportPeriod(query, nowMs);
  if (!judged.ok) {
    throw new ApiError(
      'validation_failed',
      `The report period is not valid: ${judged.field} ${judged.message}.`,
      {
        hint: `fix ${judged.field}: it ${judged.message}`,
        extensions: { errors: [{ field: judged.field, message: judged.message }] },
      },
    );
  }
  return judged.period;
}

/** One row per vehicle: its days summed; the external_ref of its latest day that names one. */
async function vehicleRows(deps: SavingsReportDeps, fleetId: string, rows: readonly SavingsDayRow[]) {
  const byVehicle = new Map<
    string,
    { figures: SavingsFigures; externalRef: string | null; refDay: string }
  >();
  for (const row of rows) {
    const sum = byVehicle.get(row.vehicleId) ?? { figures: NO_FIGURES, externalRef: null, refDay: '' };
    sum.figures = addFigures(sum.figures, row.figures);
    if (row.externalRef && row.day >= sum.refDay) {
      sum.externalRef = row.externalRef;
      sum.refDay = row.day;
    }
    byVehicle.set(row.vehicleId, sum);
  }
  // Contributions name their vehicle; a withdrawn stop's may not: read those vehicles, a few at a
  // time.
  const unnamed = [...byVehicle.entries()].filter(([, sum]) => sum.externalRef === null);
  for (let start = 0; start < unnamed.length; start += VEHICLE_READS_AT_ONCE) {
    await Promise.all(
      unnamed.slice(start, start + VEHICLE_READS_AT_ONCE).map(async ([vehicleId, sum]) => {
        sum.externalRef = (await deps.vehicles.get(fleetId, vehicleId))?.externalRef ?? null;
      }),
    );
  }
  return [...byVehicle.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([vehicleId, sum]) => ({ vehicleId, externalRef: sum.externalRef, figures: sum.figures }));
}

/** What the report says beside the day items: the program's rule now, the flagged purchases listed. */
export interface ReportContext {
  rule: FuelProgramRule;
  /** The period's flagged purchases, newest first, at most MAX_EXCEPTIONS. */
  exceptions: readonly Fueling[];
}

/** The published report; totals are the sum of the vehicle rows' integer figures. */
export function report(
  period: ReportPeriod,
  vehicles: readonly { vehicleId: string; externalRef: string | null; figures: SavingsFigures }[],
  methodologyUrl: string = METHODOLOGY_PATH,
  context: ReportContext = { rule: 'none', exceptions: [] },
) {
  const totals = vehicles.reduce((sum, row) => addFigures(sum, row.figures), NO_FIGURES);
  const { adherence_rate, ...totalFigures } = publishFigures(totals);
  const counts = verificationCounts(totals);
  const exceptions = context.exceptions.slice(0, MAX_EXCEPTIONS).map(publishedException);
  return {
    period: { from: formatTimestamp(period.fromMs), to: formatTimestamp(period.toMs) },
    totals: totalFigures,
    adherence_rate,
    vehicles: vehicles.map(
      (row): VehicleRow => ({
        vehicle_id: row.vehicleId,
        external_ref: row.externalRef,
        ...publishFigures(row.figures),
      }),
    ),
    fuel_program: { rule: context.rule, ...publishProgramSpend(totals) },
    verification: {
      ...counts,
      exceptions,
      exceptions_truncated: counts.flagged > exceptions.length,
    },
    definitions: SAVINGS_DEFINITIONS,
    methodology: methodologyUrl,
  };
}

/** A flagged purchase as the report lists it: enough to find it and see why. */
function publishedException(fueling: Fueling) {
  return {
    fueling_id: fueling.id,
    vehicle_id: fueling.vehicleId,
    fueled_at: fueling.fueledAt,
    gallons: fueling.gallons,
    station_id: fueling.stationId ?? fueling.station?.id ?? null,
    status: 'flagged' as const,
    reasons: (fueling.verification?.reasons ?? []).map(({ code, detail }) => ({ code, detail })),
  };
}
