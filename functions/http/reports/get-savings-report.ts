import { actingFleetId } from '#shared/platform/http/acting.ts';
import { ok } from '#shared/platform/http/types.ts';
import { getSavingsReportOperation } from '#shared/reports/api/operations.ts';
import { METHODOLOGY_PATH, savingsReport } from '#shared/reports/usecases/savings-report.ts';
import { savingsReportDeps } from '#shared/reports/wiring/reports.ts';
import { httpHandler } from '#shared/wiring/http.ts';

export const handler = httpHandler(getSavingsReportOperation, async ({ query }, context) =>
  ok(
    await savingsReport(
      savingsReportDeps(),
      actingFleetId(context),
      query,
      `${context.baseUrl.replace(/\/$/, '')}${METHODOLOGY_PATH}`,
    ),
  ),
);
