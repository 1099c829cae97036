import type { Context } from 'aws-lambda';
import type { mcpTools } from '../../../shared/api/mcp-tools.ts';
import type { HttpEvent, HttpResponse } from '../../../shared/platform/http/types.ts';

type RouteHandlerModule = { handler: (event: HttpEvent, context: Context) => Promise<HttpResponse> };

/**
 * The handler module of every tool's route, loaded on the first call of that tool. Written out (not
 * `import(route.handler)`) so the bundler sees each module; a unit test checks every entry is the
 * module its route names, and that every tool has one.
 */
export const routeHandlers: Record<keyof typeof mcpTools, () => Promise<RouteHandlerModule>> = {
  getMe: () => import('../account/get-me.ts'),
  createFleet: () => import('../fleets/create-fleet.ts'),
  listFleets: () => import('../fleets/list-fleets.ts'),
  getFleet: () => import('../fleets/get-fleet.ts'),
  updateFleet: () => import('../fleets/update-fleet.ts'),
  deleteFleet: () => import('../fleets/delete-fleet.ts'),
  getActingFleet: () => import('../fleets/get-acting-fleet.ts'),
  updateActingFleet: () => import('../fleets/update-acting-fleet.ts'),
  createVehicle: () => import('../vehicles/create-vehicle.ts'),
  listVehicles: () => import('../vehicles/list-vehicles.ts'),
  getVehicle: () => import('../vehicles/get-vehicle.ts'),
  updateVehicle: () => import('../vehicles/update-vehicle.ts'),
  deactivateVehicle: () => import('../vehicles/deactivate-vehicle.ts'),
  reactivateVehicle: () => import('../vehicles/reactivate-vehicle.ts'),
  listNearbyStations: () => import('../stations/list-nearby-stations.ts'),
  listStationsAlongRoute: () => import('../stations/list-stations-along-route.ts'),
  createRoute: () => import('../routes/create-route.ts'),
  getRoute: () => import('../routes/get-route.ts'),
  listEventTypes: () => import('../webhooks/list-event-types.ts'),
  createWebhook: () => import('../webhooks/create-webhook.ts'),
  listWebhooks: () => import('../webhooks/list-webhooks.ts'),
  getWebhook: () => import('../webhooks/get-webhook.ts'),
  updateWebhook: () => import('../webhooks/update-webhook.ts'),
  deleteWebhook: () => import('../webhooks/delete-webhook.ts'),
  listWebhookDeliveries: () => import('../webhooks/list-webhook-deliveries.ts'),
  replayWebhookDelivery: () => import('../webhooks/replay-webhook-delivery.ts'),
  testWebhook: () => import('../webhooks/test-webhook.ts'),
  listEvents: () => import('../events/list-events.ts'),
  getEvent: () => import('../events/get-event.ts'),
  startGuidance: () => import('../guidance/start-guidance.ts'),
  getGuidance: () => import('../guidance/get-guidance.ts'),
  cancelGuidance: () => import('../guidance/cancel-guidance.ts'),
  acknowledgeGuidanceStop: () => import('../guidance/acknowledge-guidance-stop.ts'),
  skipGuidanceStop: () => import('../guidance/skip-guidance-stop.ts'),
  getVehicleLocation: () => import('../vehicles/get-vehicle-location.ts'),
  createTrip: () => import('../trips/create-trip.ts'),
  listTrips: () => import('../trips/list-trips.ts'),
  getTrip: () => import('../trips/get-trip.ts'),
  updateTrip: () => import('../trips/update-trip.ts'),
  deleteTrip: () => import('../trips/delete-trip.ts'),
  startTrip: () => import('../trips/start-trip.ts'),
  completeTrip: () => import('../trips/complete-trip.ts'),
  cancelTrip: () => import('../trips/cancel-trip.ts'),
  optimizeTrip: () => import('../trips/optimize-trip.ts'),
  arriveAtTripStop: () => import('../trips/arrive-at-trip-stop.ts'),
  departTripStop: () => import('../trips/depart-trip-stop.ts'),
  recordFuelings: () => import('../fuelings/record-fuelings.ts'),
  listFuelings: () => import('../fuelings/list-fuelings.ts'),
  getSavingsReport: () => import('../reports/get-savings-report.ts'),
  resetSandbox: () => import('../sandbox/reset-sandbox.ts'),
  setSandboxScenario: () => import('../sandbox/set-sandbox-scenario.ts'),
  getSandboxSimulation: () => import('../sandbox/get-sandbox-simulation.ts'),
  advanceSandbox: () => import('../sandbox/advance-sandbox.ts'),
  getIntegrationHealth: () => import('../integration/get-integration-health.ts'),
  getIntegrationHealthHistory: () => import('../integration/get-integration-health-history.ts'),
  testIntegration: () => import('../integration/test-integration.ts'),
};
