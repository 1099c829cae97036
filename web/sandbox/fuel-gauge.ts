/**
 * What a truck's fuel gauge shows. The thresholds match how a dispatcher reads a tank: under a
 * quarter the truck should be heading to fuel, under an eighth it is at risk of running dry.
 */
export type FuelTone = 'ok' | 'low' | 'critical' | 'unknown';

export interface FuelGauge {
  /** 0..1 of the gauge filled; 0 when the level is unknown. */
  level: number;
  tone: FuelTone;
  /** For people and screen readers: `54% (163 gal)`, or why there is no reading. */
  label: string;
}

export const LOW_FUEL_PERCENT = 25;
export const CRITICAL_FUEL_PERCENT = 12.5;

export function fuelGauge(fuel: { percent: number; gallons: number } | null): FuelGauge {
  if (!fuel || !Number.isFinite(fuel.percent)) return { level: 0, tone: 'unknown', label: 'no fuel reading' };
  const percent = Math.min(100, Math.max(0, fuel.percent));
  const tone: FuelTone =
    percent < CRITICAL_FUEL_PERCENT ? 'critical' : percent < LOW_FUEL_PERCENT ? 'low' : 'ok';
  return {
    level: percent / 100,
    tone,
    label: `${Math.round(percent)}% (${Math.round(fuel.gallons)} gal)`,
  };
}
