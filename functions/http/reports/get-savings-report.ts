import { getSavingsReportRoute } from '../../../shared/api/routes/reports.ts';
import { actingFleetId } from '../../../shared/platform/http/acting.ts';
import { ok } from '../../../shared/platform/http/types.ts';
import { METHODOLOGY_PATH, savingsReport } from '../../../shared/usecases/savings-report.ts';
import { httpHandler } from '../../../shared/wiring/http.ts';
import { savingsReportDeps } from '../../../shared/wiring/reports.ts';

export const handler = httpHandler(getSavingsReportRoute, async ({ query }, context) =>
  ok(
    await savingsReport(
      savingsReportDeps(),
      actingFleetId(context),
      query,
      `${context.baseUrl.replace(/\/$/, '')}${METHODOLOGY_PATH}`,
    ),
  ),
);
