import { Logger } from '@aws-lambda-powertools/logger';

/** One logger for every module (Powertools: configure once, import everywhere). */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fleet-fuel-guidance',
});
