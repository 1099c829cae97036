/** GET /v1/integration/health/history's `days` (spec: default 30, at most 90). */
export const HEALTH_HISTORY_DAYS = { default: 30, min: 1, max: 90 } as const;
