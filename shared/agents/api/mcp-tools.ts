import type { RouteName } from '#shared/api/route-table.ts';

/** How an exposed operation is offered to a model: a tool name and what it is for. */
export interface McpToolEntry {
  tool: string;
  description: string;
}

/**
 * The MCP server's tools (POST /v1/mcp), curated over the route table: each exposed operation's
 * tool name and description. Input schemas, annotations and the call itself come from the route
 * (shared/agents/mcp/tools.ts), so a tool can never drift from its operation. Every route is either here
 * or in {@link hiddenFromMcp}; a unit test fails for a route in neither.
 */
export const mcpTools = {
  getMe: {
    tool: 'get_me',
    description: 'Who this API key is: kind (partner/company), scopes, fleet, plan and usage.',
  },
  createFleet: {
    tool: 'create_fleet',
    description: 'Partner keys: provision a new fleet (it emits fleet.provisioned).',
  },
  listFleets: { tool: 'list_fleets', description: 'Partner keys: the fleets this key may act on.' },
  getFleet: { tool: 'get_fleet', description: 'Partner keys: one provisioned fleet.' },
  updateFleet: { tool: 'update_fleet', description: 'Partner keys: rename a fleet or change its settings.' },
  deleteFleet: { tool: 'delete_fleet', description: 'Partner keys: delete a fleet and revoke access to it.' },
  getActingFleet: {
    tool: 'get_fleet_settings',
    description:
      'The acting fleet and its settings (the arrival fuel default, the assumed departure level, the fuel tax treatment, the fuel card program: accepted chains, discounts and rule, the default truck_profile routes are planned for).',
  },
  updateActingFleet: {
    tool: 'update_fleet_settings',
    description:
      'Change the acting fleet’s settings, e.g. fuel_tax_treatment: ifta (price net of the IFTA-credited state tax) or pump; fuel_program (the fuel card’s chains, discounts and rule, replaced whole; a company key needs keys:manage for it); truck_profile (the default truck: height_inches, width_inches, length_feet, gross_weight_lbs, axle_count, hazardous_cargo; merged member by member, null clears).',
  },
  createVehicle: {
    tool: 'create_vehicle',
    description:
      'Register a vehicle (tank size, mpg, external_ref, and optionally its truck_profile: height, width, length, gross weight, axles, hazardous cargo, which routes keep to).',
  },
  listVehicles: {
    tool: 'list_vehicles',
    description: 'List the fleet’s vehicles, optionally by status; paginate with cursor.',
  },
  getVehicle: { tool: 'get_vehicle', description: 'One vehicle, by veh_ id or ext:<external_ref>.' },
  updateVehicle: {
    tool: 'update_vehicle',
    description:
      'Edit a vehicle’s name, tank, mpg, external_ref, fuel_tax_treatment (pump for a truck that is not IFTA-qualified; null: the fleet’s) or truck_profile (merged member by member; null clears a member, so the fleet’s applies).',
  },
  deactivateVehicle: {
    tool: 'deactivate_vehicle',
    description: 'Take a vehicle out of service: its guidance ends and it is no longer billed.',
  },
  reactivateVehicle: {
    tool: 'reactivate_vehicle',
    description: 'Put a deactivated vehicle back in service.',
  },
  listNearbyStations: {
    tool: 'find_stations_nearby',
    description:
      'Fuel stations and prices within a radius of a point; accepted_only=true keeps the chains of the fleet’s fuel card program.',
  },
  listStationsAlongRoute: {
    tool: 'find_stations_along_route',
    description:
      'Fuel stations and prices along a driving corridor between points; accepted_only: true keeps the chains of the fleet’s fuel card program.',
  },
  createRoute: {
    tool: 'plan_route',
    description:
      'Plan a one-shot fuel-optimized route with its fuel stops, priced net of the IFTA-credited state tax under fuel_tax_treatment ifta, and its saving against the mean price of the stations in reach. Pass idempotency_key to make a retry safe.',
  },
  getRoute: { tool: 'get_route', description: 'A planned route, with its fuel stops and polyline.' },
  listEventTypes: { tool: 'list_webhook_event_types', description: 'The webhook event catalog.' },
  createWebhook: {
    tool: 'create_webhook',
    description: 'Register an https webhook endpoint; its signing secret is shown once.',
  },
  listWebhooks: { tool: 'list_webhooks', description: 'The webhook endpoints.' },
  getWebhook: {
    tool: 'get_webhook',
    description: 'One webhook endpoint, with its status and subscriptions.',
  },
  updateWebhook: {
    tool: 'update_webhook',
    description: 'Change a webhook endpoint’s URL, event types, description or status.',
  },
  deleteWebhook: {
    tool: 'delete_webhook',
    description: 'Delete a webhook endpoint; it gets no more deliveries.',
  },
  listWebhookDeliveries: {
    tool: 'list_webhook_deliveries',
    description: 'A webhook endpoint’s delivery log, e.g. status=failed.',
  },
  listEvents: {
    tool: 'list_events',
    description:
      'The fleet’s events in sequence order (after_sequence, type): fetch what a webhook receiver missed after a sequence gap.',
  },
  getEvent: {
    tool: 'get_event',
    description: 'One event envelope exactly as delivered, within the 30-day replay window.',
  },
  replayWebhookDelivery: {
    tool: 'replay_webhook_delivery',
    description: 'Deliver an event again (is_replay: true), within the replay window.',
  },
  testWebhook: {
    tool: 'test_webhook',
    description: 'Send a signed canned event to an endpoint now and report the outcome.',
  },
  startGuidance: {
    tool: 'start_guidance',
    description: 'Start or replace fuel-stop guidance for a vehicle toward a destination.',
  },
  getGuidance: {
    tool: 'get_guidance',
    description: 'A vehicle’s current guidance: phase, next fuel stop, freshness.',
  },
  cancelGuidance: { tool: 'cancel_guidance', description: 'Stop a vehicle’s guidance.' },
  acknowledgeGuidanceStop: {
    tool: 'acknowledge_guidance_stop',
    description: 'The driver accepted the recommended fuel stop.',
  },
  skipGuidanceStop: {
    tool: 'skip_guidance_stop',
    description: 'The driver skips the recommended fuel stop; guidance re-plans.',
  },
  getVehicleLocation: {
    tool: 'get_vehicle_location',
    description: 'A vehicle’s latest reported position and fuel level.',
  },
  createTrip: {
    tool: 'create_trip',
    description:
      'Plan a dispatch trip; with auto_optimize its fuel stops are generated. Pass idempotency_key to make a retry safe.',
  },
  listTrips: {
    tool: 'list_trips',
    description: 'The fleet’s trips by planned start, filtered by status, vehicle or dates.',
  },
  getTrip: { tool: 'get_trip', description: 'One trip, with its stops and polyline.' },
  updateTrip: { tool: 'update_trip', description: 'Edit a planned trip.' },
  deleteTrip: {
    tool: 'delete_trip',
    description: 'Delete a planned trip (an active one must be cancelled).',
  },
  startTrip: {
    tool: 'start_trip',
    description: 'Start a planned trip: its vehicle gets guidance with the trip’s fuel stops.',
  },
  completeTrip: { tool: 'complete_trip', description: 'Complete an active trip; its guidance ends.' },
  cancelTrip: {
    tool: 'cancel_trip',
    description: 'Cancel an active trip, with an optional reason; its guidance ends.',
  },
  optimizeTrip: { tool: 'optimize_trip', description: 'Regenerate a trip’s fuel stops.' },
  arriveAtTripStop: {
    tool: 'arrive_at_trip_stop',
    description: 'Record that the truck arrived at a trip stop.',
  },
  departTripStop: { tool: 'depart_trip_stop', description: 'Record that the truck left a trip stop.' },
  recordFuelings: {
    tool: 'record_fuelings',
    description:
      'Record fuel purchases (a batch), each checked against the truck’s breadcrumbs, tank and fuel levels (verification; a flagged one fires fueling.flagged). Pass idempotency_key to make a retry safe.',
  },
  listFuelings: {
    tool: 'list_fuelings',
    description: 'Recorded fuelings, by vehicle, dates or source, each purchase with its verification.',
  },
  getSavingsReport: {
    tool: 'get_savings_report',
    description: 'Fuel savings and the adherence rate over a period.',
  },
  resetSandbox: {
    tool: 'reset',
    description:
      'Sandbox: put the three simulated trucks back to their start, clearing guidance, trips, fuelings and history.',
  },
  setSandboxScenario: {
    tool: 'scenario',
    description: 'Sandbox: schedule a scenario (e.g. going offline) for a simulated truck.',
  },
  getSandboxSimulation: {
    tool: 'simulation',
    description: 'Sandbox: the simulation snapshot: clock, trucks, positions, fuel and guidance.',
  },
  advanceSandbox: {
    tool: 'advance',
    description: 'Sandbox test clock: run 1–1440 simulated minutes now through the real pipeline.',
  },
  getIntegrationHealth: {
    tool: 'get_integration_health',
    description: 'The integration health scorecard (partner keys without fleet_id: a summary per fleet).',
  },
  getIntegrationHealthHistory: {
    tool: 'get_integration_health_history',
    description: 'The integration health trend from daily snapshots.',
  },
  testIntegration: {
    tool: 'test_integration',
    description: 'Run the integration checks now and send a test webhook to each active endpoint.',
  },
} as const satisfies Partial<Record<RouteName, McpToolEntry>>;

/** Routes that are deliberately not tools, each with why. */
export const hiddenFromMcp = {
  getOpenApi: 'A discovery document: read it over HTTP; the tools already carry its schemas.',
  listErrors: 'A discovery document: problems in tool results carry their code, detail and hint.',
  getLlmsTxt: 'The guide for language models: a document to read, not an action.',
  getRootLlmsTxt: 'The guide for language models at the root path: a document, not an action.',
  mcp: 'The MCP endpoint itself.',
  ingestLocations:
    'Telematics ingest is a device integration’s high-rate batch stream, not an agent action (the sandbox `advance` tool drives breadcrumbs).',
  createKey: 'Owner key management: a new secret must not pass through a model’s transcript.',
  listKeys: 'Owner key management stays with the account owner, outside agent sessions.',
  rotateKey: 'Owner key management: a new secret must not pass through a model’s transcript.',
  revokeKey: 'Owner key management stays with the account owner, outside agent sessions.',
  requestProductionAccess:
    'Production access is the account owner’s request to the operator, not an agent’s.',
  getProductionAccess: 'Production access is the account owner’s business, outside agent sessions.',
  rotateWebhookSecret:
    'Its answer is a new signing secret, which must not pass through a model’s transcript (create_webhook withholds it too).',
} as const satisfies Partial<Record<RouteName, string>>;

/** The simulator's tools (docs/sandbox.md): listed only for test keys on the sandbox stage. */
export const sandboxToolOperations = [
  'resetSandbox',
  'setSandboxScenario',
  'getSandboxSimulation',
  'advanceSandbox',
] as const satisfies readonly (keyof typeof mcpTools)[];
