import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { queryAll, sortKeyPrefix } from '#shared/table/query-pages.ts';

/**
 * The fleet's current state as the scorecard needs it, from the items a fleet's partition already
 * keeps current (no history): its vehicles (`VEH#`), their latest positions (`VEHPOS#`) and their
 * tracking items (`VEHTRACK#`, for the guidance session). Each is one range query of the fleet's
 * partition, projected to the few attributes used, so a 1,000-vehicle fleet is three small reads.
 */
export interface FleetVehicleState {
  vehiclesActive: number;
  vehiclesMissingProfile: number;
  /** Active vehicles whose latest position was received at or after the `since` asked for. */
  vehiclesReporting: number;
  /** Of those, the ones whose latest position carries a fuel level. */
  vehiclesWithFuelLevel: number;
  /** Active vehicles with an active guidance session. */
  vehiclesWithGuidance: number;
}

export interface IntegrationFleetStateStore {
  vehicleState(fleetId: string, sinceMs: number): Promise<FleetVehicleState>;
}

export function createIntegrationFleetStateStore(
  client: DocumentClient,
  tableName: string,
): IntegrationFleetStateStore {
  const rangeOf = async (
    fleetId: string,
    prefix: string,
    projection: string,
    names: Record<string, string>,
  ) =>
    queryAll(client, {
      TableName: tableName,
      ...sortKeyPrefix(`FLEET#${fleetId}`, prefix),
      ProjectionExpression: projection,
      ExpressionAttributeNames: names,
    });
  const vehicleIdOf = (item: Record<string, unknown>, prefix: string) => String(item.sk).slice(prefix.length);

  return {
    async vehicleState(fleetId, sinceMs) {
      const [vehicles, positions, tracking] = await Promise.all([
        rangeOf(fleetId, 'VEH#', '#sk, #status, tank_size_gallons, estimated_mpg', {
          '#sk': 'sk',
          '#status': 'status',
        }),
        rangeOf(fleetId, 'VEHPOS#', '#sk, received_at_ms, recorded_at_ms, fuel_level_percent', {
          '#sk': 'sk',
        }),
        rangeOf(fleetId, 'VEHTRACK#', '#sk, session_status, #session.#status', {
          '#sk': 'sk',
          '#session': 'session',
          '#status': 'status',
        }),
      ]);
      const active = vehicles.filter((item) => item.status === 'active');
      const activeIds = new Set(active.map((item) => vehicleIdOf(item, 'VEH#')));
      const reporting = positions.filter(
        (item) =>
          activeIds.has(vehicleIdOf(item, 'VEHPOS#')) &&
          Number(item.received_at_ms ?? item.recorded_at_ms ?? 0) >= sinceMs,
      );
      const guided = tracking.filter(
        (item) =>
          activeIds.has(vehicleIdOf(item, 'VEHTRACK#')) &&
          // `session_status` since the tracking state is packed; the session map on older items.
          (item.session_status ?? (item.session as { status?: unknown } | null | undefined)?.status) ===
            'active',
      );
      return {
        vehiclesActive: active.length,
        vehiclesMissingProfile: active.filter(
          (item) => item.tank_size_gallons == null || item.estimated_mpg == null,
        ).length,
        vehiclesReporting: reporting.length,
        vehiclesWithFuelLevel: reporting.filter((item) => item.fuel_level_percent != null).length,
        vehiclesWithGuidance: guided.length,
      };
    },
  };
}
