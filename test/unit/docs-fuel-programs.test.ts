import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FUEL_PROGRAM_LIMITS } from '#shared/fuel-programs/domain/program.ts';
import { VERIFICATION_POLICY, VERIFICATION_REASON_CODES } from '#shared/fuelings/domain/verification.ts';
import { MAX_EXCEPTIONS } from '#shared/reports/usecases/savings-report.ts';

/** The fuel manager's page: its thresholds and codes are the code's, so the two cannot drift. */
const page = readFileSync(new URL('../../docs/fuel-programs-and-verification.md', import.meta.url), 'utf8');

/** The rows of the table between `<!-- name:start` and `<!-- name:end`, as cells. */
function table(name: string): string[][] {
  const text = page.split(`<!-- ${name}:start`)[1]?.split(`<!-- ${name}:end`)[0] ?? '';
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('|---'))
    .slice(1)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('docs/fuel-programs-and-verification.md', () => {
  it('publishes every verification threshold with the value the checks use, in order', () => {
    const rows = table('verification-policy').map(([name, value]) => [name, value]);
    expect(rows).toEqual(
      Object.entries(VERIFICATION_POLICY).map(([name, value]) => [`\`${name}\``, String(value)]),
    );
  });

  it('explains every reason code, in the order the code lists them', () => {
    const rows = table('verification-reasons');
    expect(rows.map(([code]) => code)).toEqual(VERIFICATION_REASON_CODES.map((code) => `\`${code}\``));
    for (const [code, effect, meaning] of rows) {
      expect(['confirms', 'flags', 'neither'], `${code}`).toContain(effect);
      expect(meaning?.length, `${code}`).toBeGreaterThan(20);
    }
  });

  it('states the program limits and the report’s exception list as the code enforces them', () => {
    expect(page).toContain(`At most ${FUEL_PROGRAM_LIMITS.maxChains} chains`);
    expect(page).toContain(`names of 1–${FUEL_PROGRAM_LIMITS.chainNameMaxLength} characters`);
    expect(page).toContain(`0 to $${(FUEL_PROGRAM_LIMITS.maxDiscountCents / 100).toFixed(2)}`);
    expect(page).toContain(`0 to $${(FUEL_PROGRAM_LIMITS.maxPenaltyCents / 100).toFixed(2)}`);
    expect(page).toContain(`newest first, at most ${MAX_EXCEPTIONS}`);
  });
});
