import { describe, expect, it } from 'vitest';
import { detectedMatchedFill, fuelingMatchedEvent } from '#shared/events/domain/event-payloads.ts';
import type { Detection } from '#shared/tracking/domain/types.ts';

/**
 * fueling.matched for a detected fill: a detection knows no receipt, so the fill is taken at the
 * recommended stop's prices, and the event states them on the basis the stop was shown on.
 */
const vehicle = { id: 'veh_01KAPX2M7G3R5T8V0W2Y4Z6B8D', externalRef: 'TRUCK-7' };
const session = { id: 'gd_01KAPX2M7G3R5T8V0W2Y4Z6B8D', tripId: null };
const detection: Extract<Detection, { kind: 'fueling' }> = {
  kind: 'fueling',
  startedAtMs: Date.parse('2026-11-21T12:00:00Z'),
  endedAtMs: Date.parse('2026-11-21T12:12:00Z'),
  latitude: 40.0,
  longitude: -80.0,
  levelBeforePercent: 21,
  levelAfterPercent: 92,
  gallons: 106.5,
};
// Breezewood, PA: $3.859 at the pump, the fleet's 10¢ card: $3.759 net; 74.1¢ state tax: $3.018.
const stop = {
  id: 'gds_01KAPX2M7G3R5T8V0W2Y4Z6B8D',
  stationId: 'stn_01KAPX2M7G3R5T8V0W2Y4Z6B8D',
  name: 'Pilot #12 Breezewood',
  latitude: 40.0,
  longitude: -80.0,
  gallonsToBuy: 110,
  netPrice: 3.759,
};

describe('fueling.matched for a detected fill at the recommended stop', () => {
  it('carries the station’s state, its tax, the treatment and the effective prices the stop was shown with', () => {
    // Act
    const event = fuelingMatchedEvent(
      detectedMatchedFill(
        'fuel_01KAPX2M7G3R5T8V0W2Y4Z6B8D',
        vehicle,
        session,
        {
          ...stop,
          state: 'PA',
          stateTax: 0.741,
          taxTreatment: 'ifta',
          effectivePrice: 3.018,
        },
        detection,
      ),
    );

    // Assess
    expect(event.data).toMatchObject({
      station: { id: stop.stationId, name: stop.name, state: 'PA' },
      net_price_usd_per_gallon: 3.759,
      recommended_net_price_usd_per_gallon: 3.759,
      state_tax_usd_per_gallon: 0.741,
      fuel_tax_treatment: 'ifta',
      effective_price_usd_per_gallon: 3.018,
      recommended_effective_price_usd_per_gallon: 3.018,
    });
  });

  it('reads a stop shown before stops carried a price basis as pump prices: effective = net, no state', () => {
    // Act
    const event = fuelingMatchedEvent(
      detectedMatchedFill('fuel_01KAPX2M7G3R5T8V0W2Y4Z6B8D', vehicle, session, stop, detection),
    );

    // Assess
    expect(event.data).toMatchObject({
      station: { id: stop.stationId, name: stop.name, state: null },
      state_tax_usd_per_gallon: null,
      fuel_tax_treatment: 'pump',
      effective_price_usd_per_gallon: 3.759,
      recommended_effective_price_usd_per_gallon: 3.759,
    });
  });
});
