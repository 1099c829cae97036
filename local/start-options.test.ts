import { describe, expect, it } from 'vitest';
import { DEFAULT_DB_PATH, parseStartOptions, StartOptionsError } from './start-options.ts';

describe('parseStartOptions', () => {
  it("keeps data in .local/ by default, delivers webhooks to this machine's receivers, logs one line per record", () => {
    expect(parseStartOptions([], {})).toEqual({
      help: false,
      fresh: false,
      dbPath: DEFAULT_DB_PATH,
      credentialsPath: '.local/credentials.json',
      webhookTargets: 'loopback',
      quiet: false,
      logFormat: 'lines',
    });
  });

  it('takes each switch as a flag or as its environment variable', () => {
    const fromFlags = parseStartOptions(
      ['--fresh', '--webhook-targets', 'private', '--quiet', '--log', 'json'],
      {},
    );
    const fromEnv = parseStartOptions([], {
      LOCAL_FRESH: '1',
      WEBHOOK_TARGETS: 'private',
      LOCAL_QUIET: '1',
      LOCAL_LOG: 'json',
    });
    for (const options of [fromFlags, fromEnv]) {
      expect(options).toMatchObject({
        fresh: true,
        webhookTargets: 'private',
        quiet: true,
        logFormat: 'json',
      });
    }
  });

  it('keeps nothing with --in-memory or LOCAL_DB_PATH=memory, and honours another folder', () => {
    expect(parseStartOptions(['--in-memory'], {}).dbPath).toBeUndefined();
    expect(parseStartOptions([], { LOCAL_DB_PATH: 'memory' }).dbPath).toBeUndefined();
    expect(parseStartOptions([], { LOCAL_DB_PATH: '/tmp/db' }).dbPath).toBe('/tmp/db');
  });

  it('refuses an unknown flag, naming the accepted ones', () => {
    expect(() => parseStartOptions(['--fersh'], {})).toThrow(StartOptionsError);
    expect(() => parseStartOptions(['--fersh'], {})).toThrow(/--fresh/);
    expect(() => parseStartOptions(['--log', 'yaml'], {})).toThrow(/--log takes "json" or "lines"/);
  });

  it('takes the deployed rule for webhooks with --webhook-targets public, and refuses a value it does not know', () => {
    expect(parseStartOptions(['--webhook-targets', 'public'], {}).webhookTargets).toBe('public');
    expect(
      parseStartOptions(['--webhook-targets', 'loopback'], { WEBHOOK_TARGETS: 'public' }).webhookTargets,
    ).toBe('loopback');
    expect(() => parseStartOptions(['--webhook-targets', 'all'], {})).toThrow(
      '--webhook-targets (WEBHOOK_TARGETS) takes "public", "loopback", "private", got "all"',
    );
    expect(() => parseStartOptions([], { WEBHOOK_TARGETS: 'yes' })).toThrow(StartOptionsError);
  });
});
