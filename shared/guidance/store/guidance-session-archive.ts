import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentClient } from '#shared/table/dynamo-client.ts';
import { ttlEpochSeconds } from '#shared/table/table.ts';
import type { GuidanceSession } from '../domain/session.ts';

/**
 * Ended guidance sessions (superseded, cancelled, arrived), each under its own id
 * (`FLEET#…`/`GUIDANCE#gd_…`): the vehicle's tracking item holds only the current session, and
 * reports (adherence, savings) need the ones before it.
 */
export const endedSessionKey = (fleetId: string, sessionId: string) => ({
  pk: `FLEET#${fleetId}`,
  sk: `GUIDANCE#${sessionId}`,
});

/** Ended sessions are kept for reports (adherence) this long. */
export const ENDED_SESSION_RETENTION_DAYS = 90;

export function endedSessionToItem(fleetId: string, session: GuidanceSession) {
  return {
    ...endedSessionKey(fleetId, session.id),
    session,
    expires_at: ttlEpochSeconds(
      (session.endedAtMs ?? session.updatedAtMs) + ENDED_SESSION_RETENTION_DAYS * 86_400_000,
    ),
  };
}

export interface GuidanceSessionArchive {
  /** Keeps an ended session under its own id; keeping it again overwrites the same item. */
  put(fleetId: string, session: GuidanceSession): Promise<void>;
}

export function createGuidanceSessionArchive(
  client: DocumentClient,
  tableName: string,
): GuidanceSessionArchive {
  return {
    async put(fleetId, session) {
      await client.send(new PutCommand({ TableName: tableName, Item: endedSessionToItem(fleetId, session) }));
    },
  };
}
