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
 * The stage's scheduled jobs (DESIGN.md: "EventBridge Scheduler rate(1 minute): offline sweep …"):
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

    this.offlineSweepSchedule = new Schedule(this, 'OfflineSweepSchedule', {
      description: OFFLINE_SWEEP.description,
      scheduleGroup: this.group,
      schedule: ScheduleExpression.rate(OFFLINE_SWEEP_RATE),
      // Off: a flexible window lets runs drift by up to its length, and silent vehicles would stay
      // online that much longer than the offline threshold says.
      timeWindow: TimeWindow.off(),
      target: new LambdaInvoke(this.offlineSweep.function, {
        role: this.schedulerRole,
        // Retries only when Scheduler cannot hand the event to Lambda (throttled, unavailable), and
        // only while the run is still this minute's: 60 s is Scheduler's minimum event age.
        retryAttempts: 2,
        maxEventAge: OFFLINE_SWEEP_RATE,
      }),
    });
    const sweepId = Stack.of(this).resolve(
      (this.offlineSweep.function.node.defaultChild as CfnResource).logicalId,
    ) as string;
    Validations.of(this.schedulerRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${sweepId}.Arn>:*]`,
      reason:
        'LambdaInvoke grants lambda:InvokeFunction on the sweep function and its qualified ARNs ' +
        '(versions, aliases; it has none): one function, nothing else.',
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
    this.healthSnapshotSchedule = new Schedule(this, 'HealthSnapshotSchedule', {
      description: HEALTH_SNAPSHOT.description,
      scheduleGroup: this.group,
      // 23:55 UTC: the scorecard's 24-hour window then covers (nearly) the UTC day the snapshot is named for.
      schedule: ScheduleExpression.cron({ minute: '55', hour: '23' }),
      timeWindow: TimeWindow.off(),
      target: new LambdaInvoke(this.healthSnapshot.function, {
        role: this.schedulerRole,
        retryAttempts: 2,
        maxEventAge: Duration.minutes(4),
      }),
    });
    const snapshotId = Stack.of(this).resolve(
      (this.healthSnapshot.function.node.defaultChild as CfnResource).logicalId,
    ) as string;
    Validations.of(this.schedulerRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${snapshotId}.Arn>:*]`,
      reason:
        'LambdaInvoke grants lambda:InvokeFunction on the snapshot function and its qualified ARNs ' +
        '(versions, aliases; it has none): one function, nothing else.',
    });
  }
}
