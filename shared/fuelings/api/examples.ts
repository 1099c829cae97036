import { type ExamplesFor, exampleId } from '#shared/api/example.ts';
import { IDS, ORIGIN, STATIONS, VEHICLE } from '#shared/api/example-fixtures.ts';
import { effectivePrice } from '#shared/fuel-tax/domain/effective-price.ts';
import { SHIPPED_FUEL_TAX_TABLE } from '#shared/fuel-tax/domain/state-diesel-tax.ts';
import { formatTimestamp } from '#shared/kernel/time.ts';
import { ApiError, batchTooLarge, unknownVehicleHint } from '#shared/platform/errors.ts';
import { ardmore, oklahomaCity } from '#shared/stations/api/examples.ts';
import type { Station } from '#shared/stations/domain/station.ts';
import { detectedFueling } from '#shared/tracking/domain/fueling-record.ts';
import { pricedFill } from '../domain/fill-pricing.ts';
import type { RecommendedStop } from '../domain/recommendations.ts';
import { roundUsd } from '../domain/savings.ts';
import { verifyPurchase } from '../domain/verification.ts';
import { reportedFueling } from '../usecases/fuelings.ts';
import type { fuelingOperations } from './operations.ts';
import { FUELING_BATCH_LIMITS, type FuelingItem } from './schemas.ts';
import { fuelingResource } from './serializers.ts';

/**
 * TRUCK-042 follows its guidance stop at TA Oklahoma City (recommended at 21:48 UTC on 21 Nov,
 * fueled at 18:58 local, 00:58 UTC on the 22nd): the fuel card reports the fill, the telematics
 * feed detected the same tank-level rise, and the two are one fill. Earlier that day it filled at
 * the Dallas yard's own tank, which only the tank level tells.
 */
const OKC_FUELED_AT = '2026-11-22T00:58:40.000000Z';
const OKC_DETECTION = {
  kind: 'fueling',
  startedAtMs: Date.parse('2026-11-22T00:49:12Z'),
  endedAtMs: Date.parse('2026-11-22T00:57:02Z'),
  latitude: 35.46208,
  longitude: -97.72541,
  levelBeforePercent: 28.9,
  levelAfterPercent: 37.3,
  gallons: 20.2,
} as const;
const YARD_DETECTION = {
  kind: 'fueling',
  startedAtMs: Date.parse('2026-11-21T12:58:30Z'),
  endedAtMs: Date.parse('2026-11-21T13:06:10Z'),
  latitude: ORIGIN.latitude,
  longitude: ORIGIN.longitude,
  levelBeforePercent: 12,
  levelAfterPercent: 48.5,
  gallons: 87.6,
} as const;
/** When the card feed's batch arrived. */
const CARD_BATCH_AT = Date.parse('2026-11-22T01:14:52.208Z');

const truck042 = { id: IDS.vehicle, externalRef: VEHICLE.external_ref };

/** A catalog station as reportedFueling takes it (only its identity and place are recorded). */
function catalogStation(
  station: (typeof STATIONS)[keyof typeof STATIONS],
  posted: { diesel_price_usd_per_gallon: number; amenities: string[]; fuels: string[] },
): Station {
  return {
    ...station,
    amenities: posted.amenities,
    fuels: posted.fuels,
    dieselPriceUsdPerGallon: posted.diesel_price_usd_per_gallon,
    priceUpdatedAtMs: Date.parse('2026-11-21T06:00:00Z'),
  };
}

const okcCard = {
  external_ref: VEHICLE.external_ref,
  fueled_at: '2026-11-21T18:58:40-06:00',
  gallons: 20.41,
  price_usd_per_gallon: oklahomaCity.diesel_price_usd_per_gallon,
  discount_usd_per_gallon: oklahomaCity.discount_usd_per_gallon,
  total_usd: roundUsd(20.41 * oklahomaCity.net_price_usd_per_gallon),
  station_id: STATIONS.taOklahomaCity.id,
  odometer_miles: 412_883,
  card_transaction_ref: 'CMD-7781-1122-0412',
  merchant_name: 'TA OKLAHOMA CITY W #212',
} satisfies FuelingItem;

/** TRUCK-043's fill the card feed already sent in an earlier batch. */
const ardmoreCard = {
  external_ref: 'TRUCK-043',
  fueled_at: '2026-11-21T15:12:05-06:00',
  gallons: 96.3,
  price_usd_per_gallon: ardmore.diesel_price_usd_per_gallon,
  discount_usd_per_gallon: ardmore.discount_usd_per_gallon,
  total_usd: roundUsd(96.3 * ardmore.net_price_usd_per_gallon),
  station_id: STATIONS.pilotArdmore.id,
  card_transaction_ref: 'CMD-7781-1121-0388',
  merchant_name: 'PILOT #1117 ARDMORE OK',
} satisfies FuelingItem;

/** A card swipe of a truck the card feed knows and this fleet has not registered yet. */
const unregisteredTruckCard = {
  external_ref: 'TRUCK-099',
  fueled_at: '2026-11-21T17:40:12-06:00',
  gallons: 118.2,
  total_usd: 402.23,
  card_transaction_ref: 'CMD-7781-1122-0409',
  merchant_name: "LOVE'S #651 SHAWNEE OK",
} satisfies FuelingItem;

const okcDetection = detectedFueling(truck042, OKC_DETECTION, null, Date.parse('2026-11-22T00:57:40Z'));

/** Oklahoma's diesel tax, credited under the fleet's default `ifta` treatment. */
const OK_TAX = SHIPPED_FUEL_TAX_TABLE.rateOf('OK', Date.parse(OKC_FUELED_AT));

/**
 * The guidance stop as its record keeps it: shown on the `ifta` basis, with the counterfactual of
 * that purchase (the mean price of the 14 stations the truck could have bought at instead).
 */
const okcStop: RecommendedStop = {
  vehicleId: IDS.vehicle,
  guidanceId: IDS.guidance,
  tripId: null,
  stopId: IDS.guidanceStop,
  tripStopId: null,
  stationId: STATIONS.taOklahomaCity.id,
  stationName: STATIONS.taOklahomaCity.name,
  latitude: STATIONS.taOklahomaCity.latitude,
  longitude: STATIONS.taOklahomaCity.longitude,
  netPrice: oklahomaCity.net_price_usd_per_gallon,
  gallonsToBuy: 20.4,
  recommendedAtMs: Date.parse('2026-11-21T21:48:00Z'),
  sequence: 0,
  price: oklahomaCity.diesel_price_usd_per_gallon,
  state: 'OK',
  stateTax: OK_TAX,
  taxTreatment: 'ifta',
  effectivePrice: effectivePrice(oklahomaCity.net_price_usd_per_gallon, OK_TAX, 'ifta'),
  counterfactual: {
    pumpPrice: effectivePrice(3.452, OK_TAX, 'ifta'),
    netPrice: effectivePrice(3.318, OK_TAX, 'ifta'),
    stationCount: 14,
  },
  withdrawnAtMs: null,
  due: false,
  followedFuelingId: null,
};

/**
 * The card checked against the truck: its breadcrumb at the pumps 2 minutes before the card's time,
 * and the tank-level rise detected there (the rules' own verdict on these figures).
 */
const okcVerification = {
  ...verifyPurchase({
    purchase: {
      fueledAtMs: Date.parse(OKC_FUELED_AT),
      gallons: okcCard.gallons,
      station: STATIONS.taOklahomaCity,
      position: null,
    },
    tankSizeGallons: VEHICLE.tank_size_gallons,
    breadcrumbs: [
      {
        recordedAtMs: OKC_DETECTION.endedAtMs - 60_000,
        latitude: OKC_DETECTION.latitude,
        longitude: OKC_DETECTION.longitude,
        fuelLevelPercent: OKC_DETECTION.levelAfterPercent,
      },
    ],
    detectedFills: [{ fueledAtMs: OKC_DETECTION.endedAtMs, gallons: OKC_DETECTION.gallons }],
  }),
  checkedAt: formatTimestamp(CARD_BATCH_AT),
  rechecked: false,
};

/** The card record as the batch records it: matched to the guidance stop and linked to the detection. */
const okcFueling = fuelingResource(
  pricedFill(
    {
      ...reportedFueling(
        okcCard,
        truck042,
        catalogStation(STATIONS.taOklahomaCity, oklahomaCity),
        Date.parse(OKC_FUELED_AT),
        CARD_BATCH_AT,
      ),
      id: exampleId('fueling', OKC_FUELED_AT, 'truck-042-okc-card'),
      guidanceId: IDS.guidance,
      stopId: IDS.guidanceStop,
      recommendedNetPrice: oklahomaCity.net_price_usd_per_gallon,
      missedSavingsUsd: 0,
      linkedFuelingId: okcDetection.id,
      detectedGallons: OKC_DETECTION.gallons,
      state: 'OK',
      stateTax: OK_TAX,
      taxTreatment: 'ifta',
      verification: okcVerification,
    },
    { stop: okcStop, followed: true },
  ),
);

/** The yard fill: no card, no station, before guidance started, so no price and nothing to match. */
const yardFueling = fuelingResource(
  pricedFill(
    {
      ...detectedFueling(truck042, YARD_DETECTION, null, Date.parse('2026-11-21T13:06:41.530Z')),
      missedSavingsUsd: 0,
      unmatchedReason: 'no_guidance',
      state: 'TX',
      stateTax: SHIPPED_FUEL_TAX_TABLE.rateOf('TX', Date.parse('2026-11-21T13:06:10Z')),
      taxTreatment: 'ifta',
    },
    null,
  ),
);

export const fuelingExamples = {
  recordFuelings: {
    request: { body: { fuelings: [okcCard, ardmoreCard, unregisteredTruckCard] } },
    responses: {
      200: {
        accepted: 1,
        rejected: 1,
        duplicates: 1,
        results: [
          { index: 0, status: 'accepted', id: okcFueling.id },
          {
            index: 1,
            status: 'duplicate',
            id: exampleId('fueling', '2026-11-21T21:12:05Z', 'truck-043-ardmore-card'),
          },
          {
            index: 2,
            status: 'rejected',
            code: 'unknown_vehicle',
            hint: unknownVehicleHint('with external_ref TRUCK-099'),
          },
        ],
      },
    },
    problem: batchTooLarge(640, FUELING_BATCH_LIMITS.maxItems, 'fuelings'),
  },
  listFuelings: {
    request: {
      query: {
        vehicle_id: `ext:${VEHICLE.external_ref}`,
        from: '2026-11-21T00:00:00Z',
        to: '2026-11-22T23:59:59Z',
        limit: '25',
      },
    },
    responses: { 200: { data: [okcFueling, yardFueling], next_cursor: null } },
    problem: new ApiError('resource_not_found', 'Vehicle ext:TRUCK-099 was not found in this fleet.'),
  },
} satisfies ExamplesFor<typeof fuelingOperations>;
