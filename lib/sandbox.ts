import { Duration } from 'aws-cdk-lib';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { type Schedule, ScheduleExpression, type ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ExecutionRoles } from './execution-roles.ts';
import { ServiceFunction } from './function-defaults.ts';
import { scheduleJob } from './jobs.ts';
import type { StageSettings } from './stage.ts';
import { SANDBOX_TICK } from './worker-functions.ts';

export const SANDBOX_TICK_RATE = Duration.minutes(SANDBOX_TICK.rateMinutes);

export interface SandboxSimulatorProps {
  settings: StageSettings;
  functionsDir: string;
  roles: ExecutionRoles;
  environment: Record<string, string>;
  functionLogPrefix: string;
  /** The events the simulated trucks cause fan out to the deliveries queue. */
  deliveries: IQueue;
  /** Its breadcrumbs go to the guidance worker through the vehicle-updates queue, as ingest's do. */
  vehicleUpdates: IQueue;
  /** The stage's jobs group and the Scheduler role that invokes its jobs (lib/jobs.ts). */
  group: ScheduleGroup;
  schedulerRole: Role;
}

/**
 * The sandbox stage's simulator (docs/sandbox.md): the tick function and its `rate(1 minute)`
 * schedule in the stage's jobs group. The stack creates it on the sandbox stage only.
 */
export class SandboxSimulator extends Construct {
  readonly tick: ServiceFunction;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: SandboxSimulatorProps) {
    super(scope, id);
    const role = props.roles.roleFor(SANDBOX_TICK.role);
    this.tick = new ServiceFunction(this, 'Tick', {
      name: SANDBOX_TICK.name,
      functionsDir: props.functionsDir,
      role,
      environment: props.environment,
      logPrefix: props.functionLogPrefix,
      retainLogs: props.settings.retainData,
      description: SANDBOX_TICK.description,
      timeout: Duration.seconds(SANDBOX_TICK.timeoutSeconds),
    });
    // Each run moves the twins from their stored state: a retried run would only repeat what the next
    // minute's run does anyway (as for the offline sweep).
    this.tick.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: SANDBOX_TICK_RATE });
    props.vehicleUpdates.grant(role, 'sqs:SendMessage');
    props.deliveries.grant(role, 'sqs:SendMessage');

    // At the exact minute: the page and the snapshot promise a minute between ticks.
    this.schedule = scheduleJob(this, 'Schedule', {
      job: this.tick,
      label: 'tick',
      description: SANDBOX_TICK.description,
      group: props.group,
      schedulerRole: props.schedulerRole,
      schedule: ScheduleExpression.rate(SANDBOX_TICK_RATE),
      maxEventAge: SANDBOX_TICK_RATE,
    });
  }
}
