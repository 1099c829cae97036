import type * as z from 'zod/mini';
import type { simulationSchema } from '../../shared/sandbox/api/schemas.ts';

/**
 * The `GET /v1/sandbox/simulation` snapshot the page draws: the API's own schema, so a change to
 * the contract fails the page's type check rather than its users. Type-only: no zod in the page.
 */
export type SandboxSnapshot = z.output<typeof simulationSchema>;
export type SimulatedVehicle = SandboxSnapshot['vehicles'][number];
export type RecentEvent = SandboxSnapshot['recent_events'][number];

/** The scenario names `POST /v1/sandbox/vehicles/{id}/scenario` accepts, in the published order. */
export { SCENARIO_NAMES as SCENARIOS } from '../../shared/sandbox/domain/scenarios.ts';
