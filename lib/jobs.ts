import { type CfnResource, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Schedule, ScheduleExpression, ScheduleGroup, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ExecutionRoles } from './execution-roles.ts';
import { ServiceFunction } from './function-defaults.ts';
import type { StageSettings } from './stage.ts';
import { HEALTH_SNAPSHOT, OFFLINE_SWEEP } from './worker-functions.ts';

/** How often the offline sweep runs (lib/worker-functions.ts, shared with the local stack). */
export const OFFLINE_SWEEP_RATE = Duration.minutes(OFFLINE_SWEEP.rateMinutes);

export interface JobsProps {
  settings: StageSettings;
  /** Where scripts/bundle-functions.ts wrote `offlineSweep/index.mjs`. */
  functionsDir: string;
  roles: ExecutionRoles;
  /** Every function's environment. */
  environment: Record<string, string>;
  functionLogPrefix: string;
  /** The webhook deliveries queue: the events a job records fan out to it. */
  deliveries: IQueue;
}

/**
 * The stage's scheduled jobs (the offline sweep every minute, docs/architecture.md):
 * one recurring schedule per job in this stage's jobs group, invoked by a Scheduler role that may
 * invoke those functions and nothing else. The simulator tick and the health snapshots join the group.
 */
export class Jobs extends Construct {
  readonly group: ScheduleGroup;
  /** What Scheduler assumes to invoke the jobs; only schedules of {@link group} may assume it. */
  readonly schedulerRole: Role;
  readonly offlineSweep: ServiceFunction;
  readonly offlineSweepSchedule: Schedule;
  readonly healthSnapshot: ServiceFunction;
  readonly healthSnapshotSchedule: Schedule;

  constructor(scope: Construct, id: string, props: JobsProps) {
    super(scope, id);
    const { settings } = props;

    this.group = new ScheduleGroup(this, 'Group', {
      // Not the webhook retry group: the dispatcher may create schedules there, and none of them should
      // sit beside (or be mistaken for) a recurring job.
      scheduleGroupName: `fleet-fuel-${settings.stage}-jobs`,
      // Fixed name, so keeping it would block the next deploy; its schedules belong to this stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      description: `Scheduler invokes the ${settings.stage} scheduled jobs`,
      // Confused-deputy guard (Scheduler's guidance): only schedules of this group may assume it.
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
          ArnEquals: { 'aws:SourceArn': this.group.scheduleGroupArn },
        },
      }),
    });

    const sweepRole = props.roles.roleFor(OFFLINE_SWEEP.role);
    this.offlineSweep = new ServiceFunction(this, 'OfflineSweep', {
      name: OFFLINE_SWEEP.name,
      functionsDir: props.functionsDir,
      role: sweepRole,
      environment: props.environment,
      logPrefix: props.functionLogPrefix,
      retainLogs: settings.retainData,
      description: OFFLINE_SWEEP.description,
      timeout: Duration.seconds(OFFLINE_SWEEP.timeoutSeconds),
    });
    // Scheduler invokes Lambda asynchronously, and Lambda would retry a failed run twice over up to six
    // hours. Each run works from the current time, so a retry only repeats what the next run, due in a
    // minute, does anyway: no retries, and an invocation still queued after a minute is dropped.
    this.offlineSweep.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: OFFLINE_SWEEP_RATE });
    // The vehicles it marks offline are events, which fan out to the deliveries queue.
    props.deliveries.grant(sweepRole, 'sqs:SendMessage');

    // Time window off: a flexible window lets runs drift by up to its length, and silent vehicles
    // would stay online that much longer than the offline threshold says. Scheduler's retries stay
    // within this minute's run: 60 s is its minimum event age.
    this.offlineSweepSchedule = scheduleJob(this, 'OfflineSweepSchedule', {
      job: this.offlineSweep,
      label: 'sweep',
      description: OFFLINE_SWEEP.description,
      group: this.group,
      schedulerRole: this.schedulerRole,
      schedule: ScheduleExpression.rate(OFFLINE_SWEEP_RATE),
      maxEventAge: OFFLINE_SWEEP_RATE,
    });

    this.healthSnapshot = new ServiceFunction(this, 'HealthSnapshot', {
      name: HEALTH_SNAPSHOT.name,
      functionsDir: props.functionsDir,
      role: props.roles.roleFor(HEALTH_SNAPSHOT.role),
      environment: props.environment,
      logPrefix: props.functionLogPrefix,
      retainLogs: settings.retainData,
      description: HEALTH_SNAPSHOT.description,
      timeout: Duration.seconds(HEALTH_SNAPSHOT.timeoutSeconds),
    });
    // A failed run is repeated by the next day's; a retry within the hour is still the same day's
    // snapshot (it overwrites it), so one retry is worth it.
    this.healthSnapshot.function.configureAsyncInvoke({ retryAttempts: 1, maxEventAge: Duration.hours(1) });
    // 23:55 UTC: the scorecard's 24-hour window then covers (nearly) the UTC day the snapshot is named for.
    this.healthSnapshotSchedule = scheduleJob(this, 'HealthSnapshotSchedule', {
      job: this.healthSnapshot,
      label: 'snapshot',
      description: HEALTH_SNAPSHOT.description,
      group: this.group,
      schedulerRole: this.schedulerRole,
      schedule: ScheduleExpression.cron({ minute: '55', hour: '23' }),
      maxEventAge: Duration.minutes(4),
    });
  }
}

/**
 * A job's schedule in the stage's jobs group: Scheduler invokes the function with the jobs' role at
 * the exact time (no flexible window), retrying twice only when it cannot hand the event to Lambda
 * (throttled, unavailable), never past `maxEventAge`. The one wildcard that grant implies (the
 * function's qualified ARNs) is acknowledged for cdk-nag here, once for every job.
 */
export function scheduleJob(
  scope: Construct,
  id: string,
  props: {
    job: ServiceFunction;
    /** Names the function in the acknowledgement, e.g. `sweep`. */
    label: string;
    description: string;
    group: ScheduleGroup;
    schedulerRole: Role;
    schedule: ScheduleExpression;
    maxEventAge: Duration;
  },
): Schedule {
  const schedule = new Schedule(scope, id, {
    description: props.description,
    scheduleGroup: props.group,
    schedule: props.schedule,
    timeWindow: TimeWindow.off(),
    target: new LambdaInvoke(props.job.function, {
      role: props.schedulerRole,
      retryAttempts: 2,
      maxEventAge: props.maxEventAge,
    }),
  });
  const jobId = Stack.of(scope).resolve(
    (props.job.function.node.defaultChild as CfnResource).logicalId,
  ) as string;
  Validations.of(props.schedulerRole).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${jobId}.Arn>:*]`,
    reason:
      `LambdaInvoke grants lambda:InvokeFunction on the ${props.label} function and its qualified ARNs ` +
      '(versions, aliases; it has none): one function, nothing else.',
  });
  return schedule;
}
