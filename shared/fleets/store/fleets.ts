import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '#shared/events/domain/envelope.ts';
import { sequenceKey, toEventItem } from '#shared/events/store/events.ts';
import type { FuelProgram } from '#shared/fuel-programs/domain/program.ts';
import {
  type FuelProgramAttribute,
  fromFuelProgramAttribute,
  toFuelProgramAttribute,
} from '#shared/fuel-programs/store/fuel-program-attribute.ts';
import { DEFAULT_FUEL_TAX_TREATMENT } from '#shared/fuel-tax/domain/treatment.ts';
import { batchGetItems } from '#shared/table/batch-get.ts';
import type { CursorCodec, Page } from '#shared/table/cursor.ts';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import {
  fromItemFields,
  type ItemFields,
  type StoredFields,
  toItemFields,
} from '#shared/table/item-fields.ts';
import { type FullQuery, queryCursorPage, sortKeyPrefix } from '#shared/table/query-pages.ts';
import { conditionalTransaction, conditionalWrite, isConditionFailure } from '#shared/table/transactions.ts';
import {
  DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
  DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
  type Fleet,
  type FleetChanges,
} from '../domain/fleet.ts';
import {
  applyTruckProfilePatch,
  TRUCK_PROFILE_FIELDS,
  type TruckProfilePatch,
  type TruckProfileSettings,
  UNSET_TRUCK_PROFILE,
} from '../domain/truck-profile.ts';
import {
  fromTruckProfileAttribute,
  TRUCK_PROFILE_ATTRIBUTES,
  type TruckProfileAttribute,
  toTruckProfileAttribute,
} from './truck-profile-attribute.ts';

export const fleetKey = (fleetId: string) => ({ pk: `FLEET#${fleetId}`, sk: 'FLEET' });
/** A partner's grant on a fleet; the partner's fleet list is a Query on its partition. */
export const grantKey = (partnerId: string, fleetId: string) => ({
  pk: `PARTNER#${partnerId}`,
  sk: `GRANT#${fleetId}`,
});

/** The fleet's fields stored as they are, each under its attribute. */
const FLEET_ATTRIBUTES = {
  id: 'id',
  name: 'name',
  externalRef: 'external_ref',
  contactEmail: 'contact_email',
  timezone: 'timezone',
  status: 'status',
  defaultMinArrivalFuelPercent: 'default_min_arrival_fuel_percent',
  assumedDepartureFuelPercent: 'assumed_departure_fuel_percent',
  fuelTaxTreatment: 'fuel_tax_treatment',
  partnerId: 'partner_id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies ItemFields<FleetFields>;

type FleetFields = Omit<Fleet, 'fuelProgram' | 'truckProfile'>;

/** A fleet as its item holds it. */
export type FleetItem = StoredFields<FleetFields, typeof FLEET_ATTRIBUTES> & {
  pk: string;
  sk: string;
  fuel_program: FuelProgramAttribute;
  truck_profile: TruckProfileAttribute;
};

export function toFleetItem(fleet: Fleet): FleetItem {
  return {
    ...fleetKey(fleet.id),
    ...toItemFields(fleet, FLEET_ATTRIBUTES),
    fuel_program: toFuelProgramAttribute(fleet.fuelProgram),
    truck_profile: toTruckProfileAttribute(fleet.truckProfile),
  };
}

/**
 * Settings a fleet's item may lack read as their defaults: the arrival margin, the departure
 * level, the fuel tax treatment, no program and no truck profile set.
 */
export function fromFleetItem(item: Record<string, unknown>): Fleet {
  const fields = fromItemFields<FleetFields>(item, FLEET_ATTRIBUTES);
  return {
    ...fields,
    defaultMinArrivalFuelPercent: fields.defaultMinArrivalFuelPercent ?? DEFAULT_MIN_ARRIVAL_FUEL_PERCENT,
    assumedDepartureFuelPercent: fields.assumedDepartureFuelPercent ?? DEFAULT_ASSUMED_DEPARTURE_FUEL_PERCENT,
    fuelTaxTreatment: fields.fuelTaxTreatment ?? DEFAULT_FUEL_TAX_TREATMENT,
    fuelProgram: fromFuelProgramAttribute(item.fuel_program as FuelProgramAttribute | undefined),
    truckProfile: fromTruckProfileAttribute(item.truck_profile as Record<string, unknown> | undefined),
  };
}

export interface FleetStore {
  /** Fleet, grant, first event and its sequence counter: all or nothing. */
  provision(fleet: Fleet, partnerId: string, event: EventEnvelope): Promise<void>;
  /** A fleet without a partner grant (a company's own fleet, seeded or approved by the operator). */
  putCompanyFleet(fleet: Fleet): Promise<void>;
  get(fleetId: string): Promise<Fleet | null>;
  hasGrant(partnerId: string, fleetId: string): Promise<boolean>;
  listGranted(partnerId: string, limit: number, cursor: string | undefined): Promise<Page<Fleet>>;
  update(fleetId: string, changes: FleetChanges, updatedAt: string): Promise<Fleet | null>;
  /** Revokes the grant and marks the fleet inactive; false when the partner held no grant. */
  deactivate(partnerId: string, fleetId: string, at: string): Promise<boolean>;
}

export function createFleetStore(
  client: DocumentClient,
  tableName: string,
  cursors: CursorCodec,
): FleetStore {
  const getFleet = async (fleetId: string) => {
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: fleetKey(fleetId) }));
    return Item ? fromFleetItem(Item) : null;
  };

  /** Creates an empty `truck_profile` map on an active fleet that has none; false: no such active fleet. */
  const ensureTruckProfileMap = async (fleetId: string) => {
    return conditionalWrite(() =>
      client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: fleetKey(fleetId),
          UpdateExpression: 'SET #truck_profile = if_not_exists(#truck_profile, :unset)',
          ConditionExpression: 'attribute_exists(pk) AND #fleet_status = :active',
          ExpressionAttributeNames: { '#truck_profile': 'truck_profile', '#fleet_status': 'status' },
          ExpressionAttributeValues: {
            ':unset': toTruckProfileAttribute(UNSET_TRUCK_PROFILE),
            ':active': 'active',
          },
        }),
      ),
    );
  };

  return {
    async provision(fleet, partnerId, event) {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                Item: toFleetItem(fleet),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: { ...grantKey(partnerId, fleet.id), fleet_id: fleet.id, granted_at: fleet.createdAt },
              },
            },
            { Put: { TableName: tableName, Item: { ...sequenceKey(fleet.id), value: event.sequence } } },
            { Put: { TableName: tableName, Item: toEventItem(event, { partnerId }) } },
          ],
        }),
      );
    },

    async putCompanyFleet(fleet) {
      await client.send(new PutCommand({ TableName: tableName, Item: toFleetItem(fleet) }));
    },

    get: getFleet,

    async hasGrant(partnerId, fleetId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: grantKey(partnerId, fleetId), ConsistentRead: true }),
      );
      return Item !== undefined;
    },

    async listGranted(partnerId, limit, cursor) {
      const scope = `fleets:${partnerId}`;
      const input: FullQuery = {
        TableName: tableName,
        ...sortKeyPrefix(`PARTNER#${partnerId}`, 'GRANT#'),
        Limit: limit,
      };
      const grants = await queryCursorPage(client, cursors, scope, cursor, input, (item) =>
        String(item.fleet_id),
      );
      const fleets = await batchGetFleets(client, tableName, grants.data);
      return {
        data: grants.data.map((id) => fleets.get(id)).filter((fleet): fleet is Fleet => fleet !== undefined),
        next_cursor: grants.next_cursor,
      };
    },

    async update(fleetId, changes, updatedAt) {
      const sets = ['updated_at = :updated_at'];
      const values: Record<string, unknown> = { ':updated_at': updatedAt, ':active': 'active' };
      const names: Record<string, string> = {};
      const settings = [
        'name',
        'externalRef',
        'contactEmail',
        'defaultMinArrivalFuelPercent',
        'assumedDepartureFuelPercent',
        'fuelTaxTreatment',
      ] as const satisfies readonly (keyof FleetChanges & keyof FleetFields)[];
      for (const field of settings) {
        if (changes[field] === undefined) continue;
        const attribute = FLEET_ATTRIBUTES[field];
        names[`#${attribute}`] = attribute;
        values[`:${attribute}`] = changes[field];
        sets.push(`#${attribute} = :${attribute}`);
      }
      if (changes.fuelProgram) {
        names['#fuel_program'] = 'fuel_program';
        values[':fuel_program'] = toFuelProgramAttribute(changes.fuelProgram);
        sets.push('#fuel_program = :fuel_program');
      }
      const profileMembers = truckProfileMembers(changes.truckProfile);
      if (profileMembers.length > 0) {
        // Each member is set on its own, so concurrent changes to different members both hold; the
        // map they are set in must exist first (a fleet item without a profile lacks it).
        if (!(await ensureTruckProfileMap(fleetId))) return null;
        names['#truck_profile'] = 'truck_profile';
        for (const [attribute, value] of profileMembers) {
          names[`#tp_${attribute}`] = attribute;
          values[`:tp_${attribute}`] = value;
          sets.push(`#truck_profile.#tp_${attribute} = :tp_${attribute}`);
        }
      }
      try {
        const { Attributes } = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: fleetKey(fleetId),
            UpdateExpression: `SET ${sets.join(', ')}`,
            // A fleet deactivated between the grant check and this write stays as it was.
            ConditionExpression: 'attribute_exists(pk) AND #fleet_status = :active',
            ExpressionAttributeNames: { ...names, '#fleet_status': 'status' },
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Attributes ? fromFleetItem(Attributes) : null;
      } catch (error) {
        if (isConditionFailure(error)) return null;
        throw error;
      }
    },

    async deactivate(partnerId, fleetId, at) {
      return conditionalTransaction(client, [
        {
          Delete: {
            TableName: tableName,
            Key: grantKey(partnerId, fleetId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: fleetKey(fleetId),
            UpdateExpression: 'SET #status = :inactive, updated_at = :at, deactivated_at = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':inactive': 'inactive', ':at': at },
          },
        },
      ]);
    },
  };
}

/**
 * Where plans and station queries read a fleet's program (the FuelProgramSource port): only the
 * `fuel_program` attribute of the fleet's item, read afresh each time so that a change is honoured
 * by the next plan or query. A fleet without an item (never expected for an acting fleet) has none.
 */
export function createFuelProgramReader(client: DocumentClient, tableName: string) {
  return {
    async get(fleetId: string): Promise<FuelProgram> {
      const item = await readFleetAttributes(client, tableName, fleetId, ['fuel_program']);
      return fromFuelProgramAttribute(item?.fuel_program as FuelProgramAttribute | undefined);
    },
  };
}

/** What a station query along a route plans with: the fleet's program and its default truck. */
export interface FleetPlanningSettings {
  program: FuelProgram;
  truckProfile: TruckProfileSettings;
}

/**
 * The fleet's fuel card program and default truck in one projected read of the fleet's item, read
 * afresh each time. A fleet without them has no program and no truck set.
 */
export function createFleetPlanningReader(client: DocumentClient, tableName: string) {
  return {
    async get(fleetId: string): Promise<FleetPlanningSettings> {
      const item = await readFleetAttributes(client, tableName, fleetId, ['fuel_program', 'truck_profile']);
      return {
        program: fromFuelProgramAttribute(item?.fuel_program as FuelProgramAttribute | undefined),
        truckProfile: fromTruckProfileAttribute(item?.truck_profile as TruckProfileAttribute | undefined),
      };
    },
  };
}

/** Some attributes of a fleet's item, read afresh and projected: the readers need no more of it. */
async function readFleetAttributes(
  client: DocumentClient,
  tableName: string,
  fleetId: string,
  attributes: readonly ('fuel_program' | 'truck_profile')[],
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: fleetKey(fleetId),
      ProjectionExpression: attributes.join(', '),
    }),
  );
  return Item;
}

/** The members a patch sets, as attribute names and stored values. */
function truckProfileMembers(patch: TruckProfilePatch | undefined): [string, unknown][] {
  if (!patch) return [];
  const full = toTruckProfileAttribute(applyTruckProfilePatch(UNSET_TRUCK_PROFILE, patch));
  return TRUCK_PROFILE_FIELDS.filter((field) => patch[field] !== undefined).map((field) => [
    TRUCK_PROFILE_ATTRIBUTES[field],
    full[TRUCK_PROFILE_ATTRIBUTES[field]],
  ]);
}

/** The fleets of `ids` by id: keys left unprocessed are asked again, never taken for missing fleets. */
async function batchGetFleets(
  client: DocumentClient,
  tableName: string,
  ids: string[],
): Promise<Map<string, Fleet>> {
  const items = await batchGetItems(client, tableName, ids.map(fleetKey), { what: 'fleets' });
  return new Map(items.map((item) => [String(item.id), fromFleetItem(item)]));
}
