import { type ExamplesFor, exampleId } from '#shared/api/example.ts';
import { IDS, STATIONS, VEHICLE } from '#shared/api/example-fixtures.ts';
import { NO_FIGURES, type SavingsFigures } from '#shared/fuelings/domain/savings.ts';
import { verifyPurchase } from '#shared/fuelings/domain/verification.ts';
import { ApiError } from '#shared/platform/errors.ts';
import type { Fueling } from '#shared/tracking/domain/fueling-record.ts';
import { METHODOLOGY_PATH, report, requestedPeriod } from '../usecases/savings-report.ts';
import type { reportOperations } from './operations.ts';

/** "Today" for the report: the morning after TRUCK-042's fill at TA Oklahoma City. */
const REPORTED_AT = Date.parse('2026-11-22T14:03:27.551Z');

/** The period an ops manager asks for: November so far (whole UTC days, both bounds included). */
const QUERY = { from: '2026-11-01', to: '2026-11-22' };

/**
 * Each truck's November, as the day items sum it (gallons in thousandths, dollars in cents), on
 * the fleet's default `ifta` basis. TRUCK-042 followed 5 of its 6 recommended stops and passed one
 * over; TRUCK-043 followed 2 of 4, and one of its fills was a detection with no guidance standing,
 * so it has gallons but no price.
 */
const NOVEMBER: { vehicleId: string; externalRef: string; figures: SavingsFigures }[] = [
  {
    vehicleId: IDS.vehicle,
    externalRef: VEHICLE.external_ref,
    figures: {
      ...NO_FIGURES,
      fuelings: 9,
      milliGallons: 1_412_350,
      pricedMilliGallons: 1_412_350,
      spendCents: 464_804,
      creditedTaxCents: 28_247,
      cardCents: 18_362,
      routingCents: 11_312,
      counterfactualMilliGallons: 1_412_350,
      missedCents: 4_113,
      recommendedStops: 6,
      followedStops: 5,
      iftaFuelings: 9,
      noGuidanceFuelings: 2,
      // Six fills on the card program, two off it, one detection at no named station.
      inProgramFuelings: 6,
      inProgramMilliGallons: 960_200,
      inProgramSpendCents: 316_070,
      offProgramFuelings: 2,
      offProgramMilliGallons: 320_150,
      offProgramSpendCents: 106_250,
      // Seven card purchases: five the truck's data confirms, one it could not check, one
      // reported before purchases were checked.
      reportedFuelings: 7,
      verifiedFuelings: 5,
      unverifiedFuelings: 1,
    },
  },
  {
    vehicleId: IDS.otherVehicle,
    externalRef: 'TRUCK-043',
    figures: {
      ...NO_FIGURES,
      fuelings: 7,
      milliGallons: 1_046_800,
      pricedMilliGallons: 934_400,
      spendCents: 312_276,
      creditedTaxCents: 18_688,
      cardCents: 12_146,
      routingCents: 1_736,
      counterfactualMilliGallons: 934_400,
      missedCents: 2_874,
      recommendedStops: 4,
      followedStops: 2,
      iftaFuelings: 6,
      noGuidanceFuelings: 1,
      inProgramFuelings: 4,
      inProgramMilliGallons: 601_200,
      inProgramSpendCents: 199_310,
      offProgramFuelings: 2,
      offProgramMilliGallons: 333_200,
      offProgramSpendCents: 112_966,
      // Six card purchases, one of them flagged (FLAGGED below).
      reportedFuelings: 6,
      verifiedFuelings: 3,
      unverifiedFuelings: 2,
      flaggedFuelings: 1,
    },
  },
];

const FLAGGED_AT = '2026-11-18T09:41:07.000000Z';

/**
 * TRUCK-043's card bought 118 gallons at Pilot Ardmore while its breadcrumbs put it in El Paso:
 * the verdict is the rules' own, on these breadcrumbs.
 */
const FLAGGED: Fueling = {
  id: exampleId('fueling', FLAGGED_AT, 'truck-043-card-ardmore'),
  vehicleId: IDS.otherVehicle,
  source: 'reported',
  gallons: 118,
  fueledAt: FLAGGED_AT,
  latitude: null,
  longitude: null,
  fuelLevelBeforePercent: null,
  fuelLevelAfterPercent: null,
  guidanceId: null,
  stopId: null,
  stationId: STATIONS.pilotArdmore.id,
  createdAt: '2026-11-18T09:42:15.000000Z',
  verification: {
    ...verifyPurchase({
      purchase: {
        fueledAtMs: Date.parse(FLAGGED_AT),
        gallons: 118,
        station: STATIONS.pilotArdmore,
        position: null,
      },
      tankSizeGallons: 200,
      breadcrumbs: [-20, -5, 10].map((minutes, i) => ({
        latitude: 31.7619 + i * 0.004,
        longitude: -106.485 - i * 0.01,
        recordedAtMs: Date.parse(FLAGGED_AT) + minutes * 60_000,
        fuelLevelPercent: null,
      })),
      detectedFills: [],
    }),
    checkedAt: '2026-11-18T09:42:15.000000Z',
    rechecked: false,
  },
};

/** Built by the report's own code: the totals are the sum of the rows, the definitions the real ones. */
const savings = report(
  requestedPeriod(QUERY, REPORTED_AT),
  // Listed by vehicle id, as the use case lists them.
  NOVEMBER.toSorted((a, b) => a.vehicleId.localeCompare(b.vehicleId)),
  METHODOLOGY_PATH,
  { rule: 'preferred', exceptions: [FLAGGED] },
);

/** A year and a month asked at once: the use case's own refusal. */
function periodRefused(query: { from: string; to: string }): ApiError {
  try {
    requestedPeriod(query, REPORTED_AT);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`A report period meant to be refused was accepted: ${JSON.stringify(query)}`);
}

export const reportExamples = {
  getSavingsReport: {
    request: { query: QUERY },
    responses: { 200: savings },
    problem: periodRefused({ from: '2025-11-01', to: QUERY.to }),
  },
} satisfies ExamplesFor<typeof reportOperations>;
