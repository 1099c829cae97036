/**
 * What the local stack (parent) and a stage server (child process) say to each other over the
 * IPC channel. Kept apart from stage-server.ts so the parent does not load the route table.
 *
 * The child is forked first and loads the route table while DynamoDB Local starts (`loaded`);
 * once the tables are seeded the parent sends `listen` with the remaining environment (the
 * DynamoDB endpoint), and the child answers `ready` with the port it bound. `stop` ends it.
 */
import type { StageUsage } from './usage.ts';

export type StageServerMessage =
  | { type: 'loaded' }
  | { type: 'ready'; port: number }
  | { type: 'error'; message: string }
  | { type: 'usage'; usage: StageUsage };

/** `usage` asks for the stage's usage counters so far (local/usage.ts); the child answers `usage`. */
export type StageControlMessage =
  | { type: 'listen'; env: Record<string, string> }
  | { type: 'stop' }
  | { type: 'usage' };

/** Set by the parent so that importing stage-server.ts anywhere else starts nothing. */
export const STAGE_SERVER_CHILD_ENV = 'LOCAL_STAGE_SERVER_CHILD';
