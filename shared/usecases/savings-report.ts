import { daysOf, type ReportPeriod, reportPeriod } from '../domain/fuelings/period.ts';
import { FUELING_POLICY } from '../domain/fuelings/policy.ts';
import {
  addFigures,
  NO_FIGURES,
  type PublishedFigures,
  publishFigures,
  type SavingsFigures,
} from '../domain/fuelings/savings.ts';
import { ApiError } from '../platform/errors.ts';
import { formatTimestamp } from '../platform/time.ts';
import type { SavingsDayRow, SavingsDayStore } from '../store/savings-days.ts';
import type { VehicleStore } from '../store/vehicles.ts';
import { findVehicle } from './vehicles.ts';

export interface SavingsReportDeps {
  vehicles: Pick<VehicleStore, 'get' | 'idForExternalRef'>;
  savingsDays: SavingsDayStore;
  now: () => number;
}

/** Published with every report, so a reader never has to guess what a figure means. */
export const SAVINGS_DEFINITIONS = {
  period:
    'The report covers whole UTC days: from the day of `from` through the day of `to` (default: the 30 days ending today), at most 366.',
  fuelings:
    'Fills made in the period, each counted once: a detected fill merged into a reported one counts as the reported one.',
  gallons:
    'Gallons bought in those fills (a reported fill’s own figure; a detection’s when nothing was reported).',
  spend_usd:
    'What the fills with a known price cost: total_usd when reported, else net price × gallons; a detected fill at a recommended stop is priced at that stop’s net price, other detections have no price.',
  benchmark_spend_usd: `What the same gallons would have cost at the benchmark: the average posted (undiscounted) price of the catalog's stations within ${FUELING_POLICY.benchmarkRadiusMiles} miles of the fill, as the catalog stood when the fill was recorded.`,
  savings_usd:
    'benchmark_spend_usd − spend_usd, that is (benchmark − net price paid) × gallons summed over priced fills.',
  savings_usd_per_gallon: 'savings_usd ÷ the gallons of priced fills; null when no fill had a price.',
  missed_savings_usd:
    'For fills made elsewhere while a recommendation stood: (net price paid − the lowest recommended net price standing) × gallons, never below 0.',
  recommended_stops: `Recommended stops that were due: withdrawn from the plan (passed, stopped at, or the session ended) while the truck was within ${FUELING_POLICY.dueWithinMiles} road miles of them, or followed; counted on the UTC day they were withdrawn.`,
  followed_stops: `Due stops a fill matched: a fill (reported or detected) that names the station or lies within ${FUELING_POLICY.matchRadiusMiles} miles of it, made while the stop stood or at most ${FUELING_POLICY.matchWindowHours} hours after it was withdrawn (judged on the fill's own time), and no more than ${FUELING_POLICY.matchEarlyMinutes} minutes before it was recommended.`,
  adherence_rate: 'followed_stops ÷ recommended_stops (0–1); null when no stop was due.',
  totals:
    'The sum of the vehicle rows (savings_usd_per_gallon and adherence_rate are recomputed from the sums).',
} as const;

/** Vehicle reads in flight at once for rows without an external_ref. */
const VEHICLE_READS_AT_ONCE = 16;

type VehicleRow = { vehicle_id: string; external_ref: string | null } & PublishedFigures;

/**
 * GET /v1/reports/savings: sums the pre-aggregated day items of the period (shared/store/
 * savings-days.ts: a few key ranges, or the vehicle's shard of each day): per vehicle, then the fleet totals as the sum of
 * those rows. Vehicles with nothing in the period are not listed.
 */
export async function savingsReport(
  deps: SavingsReportDeps,
  fleetId: string,
  query: { from?: string | undefined; to?: string | undefined; vehicle_id?: string | undefined },
) {
  const period = requestedPeriod(query, deps.now());
  let rows: SavingsDayRow[];
  if (query.vehicle_id !== undefined) {
    const vehicle = await findVehicle(deps, fleetId, query.vehicle_id);
    rows = await deps.savingsDays.vehicleDays(fleetId, vehicle.id, daysOf(period));
    rows = rows.map((row) => ({ ...row, externalRef: vehicle.externalRef }));
  } else {
    rows = await deps.savingsDays.fleetDays(fleetId, daysOf(period));
  }
  const vehicles = await vehicleRows(deps, fleetId, rows);
  return report(period, vehicles);
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
  // Contributions name their vehicle; a withdrawn stop's written before they did may not: read
  // those vehicles, a few at a time.
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

/** The published report; totals are the sum of the vehicle rows' integer figures. */
export function report(
  period: ReportPeriod,
  vehicles: readonly { vehicleId: string; externalRef: string | null; figures: SavingsFigures }[],
) {
  const totals = vehicles.reduce((sum, row) => addFigures(sum, row.figures), NO_FIGURES);
  const { adherence_rate, ...totalFigures } = publishFigures(totals);
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
    definitions: SAVINGS_DEFINITIONS,
  };
}
