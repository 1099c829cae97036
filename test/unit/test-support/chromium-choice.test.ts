import { describe, expect, it } from 'vitest';
import { type BrowserMachine, chooseChromium, DEBIAN_CHROMIUM } from '#test/support/chromium-choice.ts';

function machine(overrides: Partial<BrowserMachine> & { files?: string[] }): BrowserMachine {
  const files = new Set(overrides.files ?? []);
  return {
    chromiumPath: undefined,
    platform: 'linux',
    arch: 'x64',
    exists: (path) => files.has(path),
    ...overrides,
  };
}

describe('chooseChromium', () => {
  it('takes CHROMIUM_PATH first, even beside Debian’s package', () => {
    // Prepare
    const mine = '/opt/chrome/chrome';

    // Act
    const choice = chooseChromium(machine({ chromiumPath: mine, files: [mine, DEBIAN_CHROMIUM] }));

    // Assess
    expect(choice).toEqual({ source: 'CHROMIUM_PATH', executablePath: mine });
  });

  it('takes Debian’s package when it is installed', () => {
    // Act
    const choice = chooseChromium(machine({ files: [DEBIAN_CHROMIUM] }));

    // Assess
    expect(choice).toEqual({ source: 'debian', executablePath: DEBIAN_CHROMIUM });
  });

  it('takes the build in @sparticuz/chromium on Linux x64 without Debian’s package', () => {
    // Act
    const choice = chooseChromium(machine({}));

    // Assess
    expect(choice).toEqual({ source: 'registry' });
  });

  it('treats an empty CHROMIUM_PATH as unset', () => {
    // Act
    const choice = chooseChromium(machine({ chromiumPath: '' }));

    // Assess
    expect(choice).toEqual({ source: 'registry' });
  });

  it('refuses a CHROMIUM_PATH that names nothing rather than driving another browser', () => {
    // Act
    const choose = () =>
      chooseChromium(machine({ chromiumPath: '/nowhere/chromium', files: [DEBIAN_CHROMIUM] }));

    // Assess
    expect(choose).toThrow(
      'CHROMIUM_PATH is /nowhere/chromium, which does not exist: point it at a Chrome or Chromium binary, ' +
        'or unset it to use /usr/bin/chromium or the build in @sparticuz/chromium.',
    );
  });

  it.each([
    ['darwin', 'arm64'],
    ['linux', 'arm64'],
    ['win32', 'x64'],
  ] as const)(
    'on %s %s, where the registry build cannot run, says to set CHROMIUM_PATH',
    (platform, arch) => {
      // Act
      const choose = () => chooseChromium(machine({ platform, arch }));

      // Assess
      expect(choose).toThrow(
        `No Chromium for the browser tests on ${platform} ${arch}: the build in @sparticuz/chromium runs on ` +
          'Linux x64 only. Set CHROMIUM_PATH to a Chrome or Chromium binary',
      );
    },
  );
});
