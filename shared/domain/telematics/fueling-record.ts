/** A fueling on the fleet's record: detected from a tank-level rise, or reported. */
export interface Fueling {
  id: string;
  vehicleId: string;
  source: 'detected' | 'reported';
  gallons: number | null;
  fueledAt: string;
  latitude: number | null;
  longitude: number | null;
  fuelLevelBeforePercent: number | null;
  fuelLevelAfterPercent: number | null;
  /** The recommended stop it matched (fueling.matched), if any. */
  guidanceId: string | null;
  stopId: string | null;
  stationId: string | null;
  createdAt: string;
}
