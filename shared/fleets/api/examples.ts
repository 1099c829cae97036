import { type ExamplesFor, rejected } from '#shared/api/example.ts';
import { FLEET_CREATED_AT, IDS, NOW } from '#shared/api/example-fixtures.ts';
import { ApiError, notFound } from '#shared/platform/errors.ts';
import type { fleetOperations } from './operations.ts';
import { createFleetBody, updateFleetBody, updateFleetSettingsBody } from './schemas.ts';

const fleet = {
  id: IDS.fleet,
  name: 'Red River Freight',
  external_ref: 'RRF-001',
  contact_email: 'dispatch@redriverfreight.example',
  timezone: 'America/Chicago',
  status: 'active',
  default_min_arrival_fuel_percent: 15,
  assumed_departure_fuel_percent: 100,
  fuel_tax_treatment: 'ifta',
  // A new fleet has no card program until one is set.
  fuel_program: { rule: 'none', chains: [], off_program_penalty_usd_per_gallon: 0, updated_at: null },
  // Nothing set: a vehicle that sets no member of its own is routed as the standard truck.
  truck_profile: {
    height_inches: null,
    width_inches: null,
    length_feet: null,
    gross_weight_lbs: null,
    axle_count: null,
    hazardous_cargo: null,
  },
  created_at: FLEET_CREATED_AT,
  updated_at: FLEET_CREATED_AT,
};

/** The fleet's card: accepted at three chains, each with its negotiated discount; plans keep to it. */
const cardProgram = {
  rule: 'required',
  chains: [
    { chain: "Love's", discount_usd_per_gallon: 0.18 },
    { chain: 'Pilot', discount_usd_per_gallon: 0.21 },
    { chain: 'TA', discount_usd_per_gallon: 0.15 },
  ],
  off_program_penalty_usd_per_gallon: 0,
};

const updatedFleet = {
  ...fleet,
  contact_email: 'fuel-desk@redriverfreight.example',
  fuel_tax_treatment: 'pump',
  fuel_program: { ...cardProgram, updated_at: NOW },
  updated_at: NOW,
};
const byId = { id: IDS.fleet };
const missing = notFound(`Fleet ${IDS.fleet}`);

export const fleetExamples = {
  createFleet: {
    request: {
      body: {
        name: 'Red River Freight',
        external_ref: 'RRF-001',
        contact_email: 'dispatch@redriverfreight.example',
        timezone: 'America/Chicago',
        default_min_arrival_fuel_percent: 15,
      },
    },
    responses: { 201: fleet },
    problem: rejected('body', createFleetBody, {
      name: 'Red River Freight',
      timezone: 'Central Time',
    }),
  },
  listFleets: {
    request: { query: { limit: '25' } },
    responses: { 200: { data: [fleet], next_cursor: null } },
    problem: new ApiError('invalid_cursor', 'The cursor has expired.'),
  },
  getFleet: {
    request: { params: byId },
    responses: { 200: fleet },
    problem: missing,
  },
  updateFleet: {
    // The partner moves a fleet whose trucks stay in one state (no IFTA return) to pump prices, and
    // sets up its fuel card: plans stop only where the card is accepted.
    request: {
      params: byId,
      body: {
        contact_email: 'fuel-desk@redriverfreight.example',
        fuel_tax_treatment: 'pump',
        fuel_program: cardProgram,
      },
    },
    responses: { 200: updatedFleet },
    // Getting and deleting show the 404; the body's checks are what a partner's PATCH meets.
    problem: rejected('body', updateFleetBody, { fuel_tax_treatment: 'interstate' }),
  },
  deleteFleet: {
    request: { params: byId },
    problem: missing,
  },
  getActingFleet: {
    responses: { 200: fleet },
    problem: new ApiError('fleet_header_required', 'Send the SVC-Fleet header naming the fleet to act on.'),
  },
  updateActingFleet: {
    // A regional fleet whose trucks stay in one state files no IFTA return: it prices at the pump.
    request: {
      body: {
        default_min_arrival_fuel_percent: 20,
        assumed_departure_fuel_percent: 90,
        fuel_tax_treatment: 'pump',
        // Sending the card program takes the owner's key (keys:manage).
        fuel_program: cardProgram,
        // Its tractors pull six-axle trailers heavier than the standard truck's 80,000 lb.
        truck_profile: { gross_weight_lbs: 97_000, axle_count: 6 },
      },
    },
    responses: {
      200: {
        ...fleet,
        default_min_arrival_fuel_percent: 20,
        assumed_departure_fuel_percent: 90,
        fuel_tax_treatment: 'pump',
        fuel_program: { ...cardProgram, updated_at: NOW },
        truck_profile: { ...fleet.truck_profile, gross_weight_lbs: 97_000, axle_count: 6 },
        updated_at: NOW,
      },
    },
    problem: rejected('body', updateFleetSettingsBody, { default_min_arrival_fuel_percent: 75 }),
  },
} satisfies ExamplesFor<typeof fleetOperations>;
