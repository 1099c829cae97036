import {
  CHECK_BY_ID,
  type CheckId,
  type CheckResult,
  type CheckStatus,
  WEBHOOK_FAIL_BELOW,
} from './checks.ts';

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';
export type Severity = 'high' | 'medium';

/** The lowest score of each grade, best first; below the last is F. */
export const GRADE_FLOORS: readonly { grade: Grade; min: number }[] = [
  { grade: 'A', min: 90 },
  { grade: 'B', min: 80 },
  { grade: 'C', min: 70 },
  { grade: 'D', min: 60 },
];

const EARNED: Record<CheckStatus, number> = { pass: 1, warn: 0.5, fail: 0 };

/** 0–100: each check's weight, all of it for a pass, half for a warn, none for a fail. */
export function healthScore(checks: readonly Pick<CheckResult, 'id' | 'status'>[]): number {
  const earned = checks.reduce((sum, check) => sum + CHECK_BY_ID[check.id].weight * EARNED[check.status], 0);
  return Math.round(earned);
}

export function gradeOf(score: number): Grade {
  return GRADE_FLOORS.find((floor) => score >= floor.min)?.grade ?? 'F';
}

export interface NextStep {
  severity: Severity;
  check_id: CheckId;
  action: string;
}

/**
 * One step per check that did not pass: failures (`high`) before warnings (`medium`), and within a
 * severity the checks worth most points first, so the first step is the one that lifts the score most.
 */
export function nextSteps(checks: readonly Pick<CheckResult, 'id' | 'status'>[]): NextStep[] {
  return checks
    .filter((check) => check.status !== 'pass')
    .map((check) => ({ check, definition: CHECK_BY_ID[check.id] }))
    .sort(
      (a, b) =>
        Number(a.check.status === 'warn') - Number(b.check.status === 'warn') ||
        b.definition.weight - a.definition.weight,
    )
    .map(({ check, definition }) => ({
      severity: check.status === 'fail' ? 'high' : 'medium',
      check_id: check.id,
      action: definition.action,
    }));
}

/** An endpoint is failing when most of its delivery attempts in the window did not answer 2xx. */
export function isFailingEndpoint(attempts: number, succeeded: number): boolean {
  return attempts > 0 && succeeded / attempts < WEBHOOK_FAIL_BELOW;
}
