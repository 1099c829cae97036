import { describe, expect, it } from 'vitest';
import {
  type BreadcrumbOperations,
  costPerVehicleMonth,
  GB,
  gbSeconds,
  mixedFleetCost,
  ONE_MINUTE_CADENCE,
  PRICES,
} from '#bench/cost-model.ts';

const OPERATIONS: BreadcrumbOperations = {
  dynamodbWriteUnits: 1.2,
  dynamodbReadUnits: 2,
  dynamodbStoredBytes: 60,
  sqsRequests: 0.3,
  lambdaInvocations: 0.102,
  lambdaGbSeconds: 0.002,
  apiGatewayRequests: 0.002,
  logBytes: 400,
};

describe('costPerVehicleMonth', () => {
  it('prices each service from the monthly count of its operations', () => {
    // Act
    const cost = costPerVehicleMonth(OPERATIONS);

    // Assess: 43,200 breadcrumbs a month at a one-minute cadence.
    const month = 43_200;
    expect(cost.cost_usd_per_vehicle_month_dynamodb_writes).toBeCloseTo(1.2 * month * (0.625 / 1e6), 5);
    expect(cost.cost_usd_per_vehicle_month_dynamodb_reads).toBeCloseTo(2 * month * (0.125 / 1e6), 5);
    // 90 days of one-minute breadcrumbs kept, 60 bytes each, at $0.25 per GB-month plus $0.20 for PITR.
    expect(cost.cost_usd_per_vehicle_month_dynamodb_storage).toBeCloseTo(
      ((90 * 1440 * 60) / GB) * (0.25 + 0.2),
      5,
    );
    expect(cost.cost_usd_per_vehicle_month_sqs).toBeCloseTo(0.3 * month * (0.4 / 1e6), 5);
    expect(cost.cost_usd_per_vehicle_month_api_gateway).toBeCloseTo(0.002 * month * (1 / 1e6), 5);
    expect(cost.cost_usd_per_vehicle_month_lambda).toBeCloseTo(
      0.102 * month * (0.2 / 1e6) + 0.002 * month * 0.0000133334,
      5,
    );
    // Ingested once, then stored for the 30-day retention (uncompressed: the upper bound).
    const logGb = (400 * month) / GB;
    expect(cost.cost_usd_per_vehicle_month_cloudwatch_logs).toBeCloseTo(logGb * 0.5 + logGb * 0.03, 5);
  });

  it('has a breakdown that sums to the total, and a DynamoDB line that sums its parts', () => {
    // Act
    const cost = costPerVehicleMonth(OPERATIONS);

    // Assess
    const services =
      cost.cost_usd_per_vehicle_month_dynamodb +
      cost.cost_usd_per_vehicle_month_sqs +
      cost.cost_usd_per_vehicle_month_lambda +
      cost.cost_usd_per_vehicle_month_api_gateway +
      cost.cost_usd_per_vehicle_month_cloudwatch_logs;
    expect(cost.cost_usd_per_vehicle_month).toBeCloseTo(services, 8);
    expect(cost.cost_usd_per_vehicle_month_dynamodb).toBeCloseTo(
      cost.cost_usd_per_vehicle_month_dynamodb_writes +
        cost.cost_usd_per_vehicle_month_dynamodb_reads +
        cost.cost_usd_per_vehicle_month_dynamodb_storage,
      4,
    );
    expect(cost.cost_usd_per_vehicle_month).toBeGreaterThan(0);
  });

  it('moves the total by exactly what a price change moves its line', () => {
    // Prepare
    const before = costPerVehicleMonth(OPERATIONS);
    const dearerWrites = {
      ...PRICES,
      dynamodbWriteRequestUnit: { usd: PRICES.dynamodbWriteRequestUnit.usd * 2 },
    };

    // Act
    const after = costPerVehicleMonth(OPERATIONS, dearerWrites);

    // Assess
    const writesBefore = before.cost_usd_per_vehicle_month_dynamodb_writes;
    expect(after.cost_usd_per_vehicle_month_dynamodb_writes).toBeCloseTo(2 * writesBefore, 5);
    expect(after.cost_usd_per_vehicle_month - before.cost_usd_per_vehicle_month).toBeCloseTo(writesBefore, 4);
    expect(after.cost_usd_per_vehicle_month_lambda).toBe(before.cost_usd_per_vehicle_month_lambda);
  });

  it('scales with the cadence: half the breadcrumbs, half the per-request cost', () => {
    // Prepare
    const twoMinutes = { ...ONE_MINUTE_CADENCE, breadcrumbsPerMonth: 21_600, breadcrumbsPerDay: 720 };

    // Act
    const oneMinute = costPerVehicleMonth(OPERATIONS);
    const halved = costPerVehicleMonth(OPERATIONS, PRICES, twoMinutes);

    // Assess
    expect(halved.cost_usd_per_vehicle_month_sqs).toBeCloseTo(
      oneMinute.cost_usd_per_vehicle_month_sqs / 2,
      5,
    );
    expect(halved.cost_usd_per_vehicle_month_dynamodb_storage).toBeCloseTo(
      oneMinute.cost_usd_per_vehicle_month_dynamodb_storage / 2,
      5,
    );
  });
});

describe('mixedFleetCost', () => {
  it('weights the guided and unguided truck by their shares of the fleet', () => {
    expect(mixedFleetCost(0.09, 0.06, 0.1)).toBeCloseTo(0.063, 6);
    expect(mixedFleetCost(0.09, 0.06, 0)).toBe(0.06);
    expect(mixedFleetCost(0.09, 0.06, 1)).toBe(0.09);
  });

  it('refuses a share outside 0 to 1', () => {
    expect(() => mixedFleetCost(0.09, 0.06, 10)).toThrow(RangeError);
  });
});

describe('gbSeconds', () => {
  it('is billed duration in seconds × memory in GB (1,024 MB)', () => {
    expect(gbSeconds(1000, 512)).toBe(0.5);
    expect(gbSeconds(250, 1024)).toBe(0.25);
  });
});
