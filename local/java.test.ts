import { describe, expect, it } from 'vitest';
import { parseJavaMajor } from './java.ts';

describe('parseJavaMajor', () => {
  it('reads modern and legacy `java -version` output', () => {
    expect(parseJavaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(parseJavaMajor('openjdk version "21" 2023-09-19')).toBe(21);
    expect(parseJavaMajor('java version "1.8.0_392"')).toBe(8);
    expect(parseJavaMajor('command not found')).toBeUndefined();
  });
});
