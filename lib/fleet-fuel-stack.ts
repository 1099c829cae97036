import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { fallbackRoute, routeList } from '../shared/api/routes.ts';
import { Alarms } from './alarms.ts';
import { Api } from './api.ts';
import { CursorSigningSecret } from './cursor-signing-secret.ts';
import { DataTable } from './data.ts';
import { ExecutionRoles } from './execution-roles.ts';
import { serviceEnvironment } from './service-environment.ts';
import type { StageSettings } from './stage.ts';
import { Webhooks } from './webhooks.ts';

export interface FleetFuelStackProps extends StackProps {
  settings: StageSettings;
  /** Where scripts/bundle-functions.ts wrote `<operationId>/index.mjs`. */
  functionsDir: string;
}

/** One stage of the service: its own table, signing secret, functions, webhook pipeline and API URL. */
export class FleetFuelStack extends Stack {
  readonly data: DataTable;
  readonly cursorSigningSecret: CursorSigningSecret;
  readonly roles: ExecutionRoles;
  readonly webhooks: Webhooks;
  readonly api: Api;

  constructor(scope: Construct, id: string, props: FleetFuelStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const logGroupNames = {
      functionPrefix: `/fleet-fuel/${settings.stage}/functions`,
      access: `/fleet-fuel/${settings.stage}/api-access`,
    };

    // Stateful resources first and apart: they outlive every redeploy of the stateless ones.
    this.data = new DataTable(this, 'Data', { retainData: settings.retainData });
    this.cursorSigningSecret = new CursorSigningSecret(this, 'CursorSigningKey', {
      retainData: settings.retainData,
    });

    this.roles = new ExecutionRoles(this, 'ExecutionRoles', {
      table: this.data.table,
      functionLogPrefix: logGroupNames.functionPrefix,
      routingEngine: settings.routingEngine,
    });
    const environment = serviceEnvironment({
      settings,
      tableName: this.data.table.tableName,
      cursorSigningKey: this.cursorSigningSecret.environmentValue(),
    });
    this.webhooks = new Webhooks(this, 'Webhooks', {
      settings,
      functionsDir: props.functionsDir,
      roles: this.roles,
      environment,
      functionLogPrefix: logGroupNames.functionPrefix,
    });
    this.api = new Api(this, 'Api', {
      settings,
      routes: routeList,
      fallback: fallbackRoute,
      functionsDir: props.functionsDir,
      roles: this.roles,
      // Events recorded by any route fan out to the deliveries queue.
      environment: { ...environment, ...this.webhooks.environment },
      logGroupNames,
    });

    const alarms = new Alarms(this, 'Alarms', {
      stage: settings.stage,
      httpApiId: this.api.httpApi.apiId,
      deadLetters: this.webhooks.deadLetters,
      dispatcher: this.webhooks.dispatcher.function,
      table: this.data.table,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: alarms.topic.topicArn,
      description: 'Subscribe the on-call pager or an email to this topic',
    });

    new CfnOutput(this, 'ApiUrl', {
      value: this.api.url,
      description: `Base URL of the ${settings.stage} API`,
    });
  }
}
