import { describe, expect, it } from 'vitest';
import { dataFieldsOf } from '#shared/events/api/event-data-schemas.ts';
import { lacksExternalRef, withExternalRef } from '#shared/events/domain/event-vehicle-ref.ts';
import { EVENT_CATALOG } from '#shared/events/domain/events.ts';
import { isPublicId } from '#shared/kernel/ids.ts';
import { testEventData, testEventSamples } from '#shared/webhooks/usecases/webhook-test-samples.ts';

const NOW_MS = Date.parse('2026-11-21T12:00:00Z');
const FLEET_ID = 'flt_01KAPX2M7G3R5T8V0W2Y4Z6B8D';
const published = (fields: readonly string[]) => fields.map((field) => field.replace(/\?$/, ''));

describe('the event catalog: vehicle events name the vehicle by both keys', () => {
  it('publishes external_ref, right after vehicle_id, in every type whose data names a vehicle', () => {
    const vehicleTypes = EVENT_CATALOG.filter(({ type }) => dataFieldsOf(type).includes('vehicle_id'));
    expect(vehicleTypes.length).toBeGreaterThan(0);
    for (const { type } of vehicleTypes) {
      const fields = dataFieldsOf(type);
      expect(fields[fields.indexOf('vehicle_id') + 1], type).toBe('external_ref');
    }
  });
});

describe('withExternalRef / lacksExternalRef: filling in the vehicle’s external_ref at recording', () => {
  it('places external_ref right after vehicle_id and keeps every other member in order', () => {
    const data = { fueling_id: 'fuel_1', vehicle_id: 'veh_1', gallons: 80 };
    expect(lacksExternalRef(data)).toBe(true);
    expect(lacksExternalRef({ vehicle_id: null })).toBe(true);
    expect(Object.entries(withExternalRef(data, 'TRUCK-7'))).toEqual([
      ['fueling_id', 'fuel_1'],
      ['vehicle_id', 'veh_1'],
      ['external_ref', 'TRUCK-7'],
      ['gallons', 80],
    ]);
    expect(withExternalRef(data, null).external_ref).toBeNull();
  });

  it('leaves alone data that names no vehicle, or already carries external_ref (even null)', () => {
    expect(lacksExternalRef({ fleet: { id: FLEET_ID } })).toBe(false);
    expect(lacksExternalRef({ vehicle_id: 'veh_1', external_ref: 'OWN' })).toBe(false);
    expect(lacksExternalRef({ vehicle_id: 'veh_1', external_ref: null })).toBe(false);
  });
});

describe('test-send samples', () => {
  const samples: Record<string, Record<string, unknown>> = testEventSamples(NOW_MS, FLEET_ID);

  it.each(EVENT_CATALOG.map(({ type }) => type))(
    '%s: a sample with exactly the published data fields, every one filled in',
    (type) => {
      const data = testEventData(type, NOW_MS, FLEET_ID);
      expect(Object.keys(data)).toEqual(published(dataFieldsOf(type)));
      for (const [field, value] of Object.entries(data)) expect(value, `${type}.${field}`).not.toBeNull();
    },
  );

  it('has a sample for every type of the catalog and no other', () => {
    expect(Object.keys(samples).sort()).toEqual(EVENT_CATALOG.map(({ type }) => type).sort());
    expect(testEventData('vehicle.fuel_empty', NOW_MS, FLEET_ID)).toEqual({});
  });

  it('looks real: well-formed ids, the API’s timestamp and coordinate precision, one truck throughout', () => {
    for (const [type, data] of Object.entries(samples)) {
      if ('vehicle_id' in data) {
        expect(isPublicId('vehicle', data.vehicle_id as string), type).toBe(true);
        expect(data.external_ref, type).toBe('TRUCK-1042');
      }
      for (const [field, value] of Object.entries(data)) {
        if (field.endsWith('_at'))
          expect(value, `${type}.${field}`).toMatch(/^\d{4}-\d\d-\d\dT[\d:]{8}\.\d{6}Z$/);
        if (field === 'latitude' || field === 'longitude') {
          expect(Math.round((value as number) * 1e5) / 1e5, `${type}.${field}`).toBe(value);
        }
      }
    }
    expect(samples['fleet.provisioned']?.fleet).toMatchObject({ id: FLEET_ID, status: 'active' });
  });
});
