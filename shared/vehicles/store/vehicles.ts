import { GetCommand, type NativeAttributeValue, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  fromTruckProfileAttribute,
  type TruckProfileAttribute,
  toTruckProfileAttribute,
} from '#shared/fleets/store/truck-profile-attribute.ts';
import { ApiError } from '#shared/platform/errors.ts';
import { batchGetItems } from '#shared/table/batch-get.ts';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import {
  fromItemFields,
  type ItemFields,
  type StoredFields,
  toItemFields,
} from '#shared/table/item-fields.ts';
import { type FullQuery, gsi1Partition, queryCursorPage, sortKeyPrefix } from '#shared/table/query-pages.ts';
import {
  failedConditionIndexes,
  isConditionFailure,
  isTransactionConflict,
} from '#shared/table/transactions.ts';
import type { Vehicle, VehicleStatus } from '../domain/vehicle.ts';

type Item = Record<string, NativeAttributeValue>;
type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/**
 * Vehicles live in their fleet's partition (`FLEET#flt_…` / `VEH#veh_…`), so an id from another
 * fleet is simply not found. gsi1 lists them by status. Uniqueness of external_ref and VIN within a
 * fleet is held by guard items (`VEHREF#…`, `VEHVIN#…`) written in the same transaction as the
 * vehicle: a concurrent create loses on the guard's condition and writes nothing.
 */
export const vehicleKey = (fleetId: string, vehicleId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEH#${vehicleId}`,
});
export const externalRefGuardKey = (fleetId: string, externalRef: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHREF#${externalRef}`,
});
export const vinGuardKey = (fleetId: string, vin: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `VEHVIN#${vin}`,
});
const statusIndexKey = (fleetId: string, status: VehicleStatus) => `FLEET#${fleetId}#VEH#${status}`;

/** The vehicle's fields stored as they are, each under its attribute. */
const VEHICLE_ATTRIBUTES = {
  id: 'id',
  fleetId: 'fleet_id',
  externalRef: 'external_ref',
  linkedExternalRefs: 'linked_external_refs',
  name: 'name',
  vin: 'vin',
  tankSizeGallons: 'tank_size_gallons',
  estimatedMpg: 'estimated_mpg',
  licensePlate: 'license_plate',
  fuelTaxTreatment: 'fuel_tax_treatment',
  status: 'status',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  version: 'version',
} as const satisfies ItemFields<Omit<Vehicle, 'truckProfile'>>;

/** A vehicle as its item holds it. */
export type VehicleItem = StoredFields<Omit<Vehicle, 'truckProfile'>, typeof VEHICLE_ATTRIBUTES> & {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  truck_profile: TruckProfileAttribute;
};

export function toVehicleItem(vehicle: Vehicle): VehicleItem {
  return {
    ...vehicleKey(vehicle.fleetId, vehicle.id),
    gsi1pk: statusIndexKey(vehicle.fleetId, vehicle.status),
    gsi1sk: `VEH#${vehicle.id}`,
    ...toItemFields(vehicle, VEHICLE_ATTRIBUTES),
    truck_profile: toTruckProfileAttribute(vehicle.truckProfile),
  };
}

/**
 * Attributes a vehicle's item may lack read as nothing set: no linked refs, no fuel tax
 * treatment of its own (the fleet's), no truck profile; a missing version as the first.
 */
export function fromVehicleItem(item: Item): Vehicle {
  const fields = fromItemFields<Omit<Vehicle, 'truckProfile'>>(item, VEHICLE_ATTRIBUTES);
  return {
    ...fields,
    linkedExternalRefs: fields.linkedExternalRefs ?? [],
    truckProfile: fromTruckProfileAttribute(item.truck_profile),
    version: Number(fields.version ?? 1),
  };
}

export type GuardConflict = { field: 'external_ref' | 'vin'; value: string };

export class GuardConflictError extends Error {
  constructor(readonly conflict: GuardConflict) {
    super(`${conflict.field} ${conflict.value} is already taken`);
  }
}

export interface VehicleStore {
  get(fleetId: string, vehicleId: string): Promise<Vehicle | null>;
  /**
   * The fleet's vehicles among these ids, by id (ids not found are absent): BatchGetItem, 100 keys
   * a call, so a request naming 50 vehicles reads them in one call instead of 50.
   */
  getMany(fleetId: string, vehicleIds: readonly string[]): Promise<Map<string, Vehicle>>;
  /** The vehicle id an external_ref (primary or linked) resolves to. */
  idForExternalRef(fleetId: string, externalRef: string): Promise<string | null>;
  idForVin(fleetId: string, vin: string): Promise<string | null>;
  /** Writes the vehicle with its guards; throws GuardConflictError when a guard is taken. */
  create(vehicle: Vehicle): Promise<void>;
  /**
   * Replaces `before` with `after` if nobody wrote in between (version check), moving guard items
   * for a changed external_ref or VIN and adding guards for newly linked refs. Throws
   * GuardConflictError when a new guard is taken, or a resource_conflict ApiError on a lost race.
   */
  replace(before: Vehicle, after: Vehicle): Promise<void>;
  list(
    fleetId: string,
    status: VehicleStatus | undefined,
    limit: number,
    cursor: string | undefined,
  ): Promise<Page<Vehicle>>;
}

/** The reads: all that the features other than the vehicle routes need of a vehicle. */
export type VehicleReader = Pick<VehicleStore, 'get' | 'getMany' | 'idForExternalRef' | 'idForVin'>;

/**
 * The store's read side alone: a function that only looks vehicles up bundles none of the guarded
 * writes or the listing (docs/cold-starts.md).
 */
export function createVehicleReader(client: DocumentClient, tableName: string): VehicleReader {
  const guardTarget = async (key: { pk: string; sk: string }) => {
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
    );
    return Item ? String(Item.vehicle_id) : null;
  };

  return {
    async get(fleetId, vehicleId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: vehicleKey(fleetId, vehicleId) }),
      );
      return Item ? fromVehicleItem(Item) : null;
    },

    async getMany(fleetId, vehicleIds) {
      const keys = [...new Set(vehicleIds)].map((id) => vehicleKey(fleetId, id));
      const items = await batchGetItems(client, tableName, keys, { what: 'vehicle keys' });
      return new Map(items.map((item) => fromVehicleItem(item)).map((vehicle) => [vehicle.id, vehicle]));
    },

    idForExternalRef: (fleetId, externalRef) => guardTarget(externalRefGuardKey(fleetId, externalRef)),
    idForVin: (fleetId, vin) => guardTarget(vinGuardKey(fleetId, vin)),
  };
}

export function createVehicleStore(
  client: DocumentClient,
  tableName: string,
  cursors: CursorCodec,
): VehicleStore {
  const putGuard = (key: { pk: string; sk: string }, vehicleId: string): TransactItem => ({
    Put: {
      TableName: tableName,
      Item: { ...key, vehicle_id: vehicleId },
      // Re-linking a ref to the vehicle it already names is harmless; any other owner is a conflict.
      ConditionExpression: 'attribute_not_exists(pk) OR vehicle_id = :self',
      ExpressionAttributeValues: { ':self': vehicleId },
    },
  });
  const deleteGuard = (key: { pk: string; sk: string }, vehicleId: string): TransactItem => ({
    Delete: {
      TableName: tableName,
      Key: key,
      ConditionExpression: 'attribute_not_exists(pk) OR vehicle_id = :self',
      ExpressionAttributeValues: { ':self': vehicleId },
    },
  });

  async function writeWithGuards(items: TransactItem[], guards: (GuardConflict | null)[]) {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      const failed = failedConditionIndexes(error);
      const conflict = failed.map((index) => guards[index]).find((guard) => guard);
      if (conflict) throw new GuardConflictError(conflict);
      if (isConditionFailure(error) || isTransactionConflict(error)) {
        throw new ApiError('resource_conflict', 'The vehicle was changed by a concurrent request.', {
          hint: 'read the vehicle again and retry your change',
        });
      }
      throw error;
    }
  }

  return {
    ...createVehicleReader(client, tableName),

    async create(vehicle) {
      const items: TransactItem[] = [
        {
          Put: {
            TableName: tableName,
            Item: toVehicleItem(vehicle),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        putGuard(externalRefGuardKey(vehicle.fleetId, vehicle.externalRef), vehicle.id),
      ];
      const guards: (GuardConflict | null)[] = [null, { field: 'external_ref', value: vehicle.externalRef }];
      if (vehicle.vin) {
        items.push(putGuard(vinGuardKey(vehicle.fleetId, vehicle.vin), vehicle.id));
        guards.push({ field: 'vin', value: vehicle.vin });
      }
      await writeWithGuards(items, guards);
    },

    async replace(before, after) {
      const items: TransactItem[] = [
        {
          Put: {
            TableName: tableName,
            Item: toVehicleItem(after),
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ':version': before.version },
          },
        },
      ];
      const guards: (GuardConflict | null)[] = [null];
      const beforeRefs = new Set([before.externalRef, ...before.linkedExternalRefs]);
      const afterRefs = new Set([after.externalRef, ...after.linkedExternalRefs]);
      for (const ref of afterRefs) {
        if (beforeRefs.has(ref)) continue;
        items.push(putGuard(externalRefGuardKey(after.fleetId, ref), after.id));
        guards.push({ field: 'external_ref', value: ref });
      }
      for (const ref of beforeRefs) {
        if (afterRefs.has(ref)) continue;
        items.push(deleteGuard(externalRefGuardKey(after.fleetId, ref), after.id));
        guards.push(null);
      }
      if (before.vin !== after.vin) {
        if (after.vin) {
          items.push(putGuard(vinGuardKey(after.fleetId, after.vin), after.id));
          guards.push({ field: 'vin', value: after.vin });
        }
        if (before.vin) {
          items.push(deleteGuard(vinGuardKey(after.fleetId, before.vin), after.id));
          guards.push(null);
        }
      }
      await writeWithGuards(items, guards);
    },

    async list(fleetId, status, limit, cursor) {
      const scope = `vehicles:${fleetId}:${status ?? 'all'}`;
      const query = status
        ? gsi1Partition(statusIndexKey(fleetId, status))
        : sortKeyPrefix(`FLEET#${fleetId}`, 'VEH#');
      const input: FullQuery = {
        TableName: tableName,
        ...query,
        Limit: limit,
      };
      return queryCursorPage(client, cursors, scope, cursor, input, fromVehicleItem);
    },
  };
}
