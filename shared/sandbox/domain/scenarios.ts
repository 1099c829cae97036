/**
 * What an integrator can make a simulated truck do (POST /v1/sandbox/vehicles/{id}/scenario). A
 * scenario applies on the truck's next simulated minute; the descriptions are published in
 * openapi.json and docs/sandbox.md.
 */
export const SCENARIOS = [
  {
    name: 'normal',
    description:
      'Drives its route at its cruise speed, reports a breadcrumb with a fuel level every minute, follows its guidance to the recommended stop and fills up there.',
  },
  {
    name: 'low_fuel',
    description:
      'The tank reads 14 % at once: fuel.low fires, guidance recommends a stop close ahead, and the truck then carries on as normal.',
  },
  {
    name: 'skips_recommendations',
    description:
      'Ignores its guidance: below 30 % it fills up at whatever stop it is passing (never the recommended one), so the fueling is recorded but not matched (missed savings).',
  },
  {
    name: 'offline',
    description:
      'Stops reporting for 30 simulated minutes while it keeps driving (vehicle.offline after 15), then reports again (vehicle.online) and goes back to normal.',
  },
  {
    name: 'no_fuel_sensor',
    description:
      'Breadcrumbs carry no fuel_level_percent: guidance works from the level projected from the last reported one.',
  },
  {
    name: 'sensor_noise',
    description:
      'The tank sensor sloshes heavily (about ±9 points while moving): the readings jump, but no fueling may be detected from them.',
  },
] as const;

export type ScenarioName = (typeof SCENARIOS)[number]['name'];

export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name) as [ScenarioName, ...ScenarioName[]];

/** How long the `offline` scenario keeps a truck silent: past the 15-minute offline threshold. */
export const OFFLINE_SCENARIO_MINUTES = 30;

/** The level `low_fuel` sets. */
export const LOW_FUEL_SCENARIO_PERCENT = 14;
