/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** What decides which browser the tests drive. */
export interface BrowserMachine {
  /** The CHROMIUM_PATH environment variable. */
  chromiumPath: string | undefined;
  platform: NodeJS.Platform;
  arch: string;
  exists: (path: string) => boolean;
}

export type ChromiumChoice =
  | { source: 'CHROMIUM_PATH' | 'debian'; executablePath: string }
  /** The build inside the npm package @sparticuz/chromium: Linux x64 only. */
  | { source: 'registry' };

/**
 * The browser for the browser tests: CHROMIUM_PATH when it is set, else Debian's package when it
 * is installed, else the build that `npm install` brought with @sparticuz/chromium. A CHROMIUM_PATH
 * that names nothing is an error rather than a quiet fallback: whoever set it meant that browser.
 */
export function chooseChromium(machine: BrowserMachine): ChromiumChoice {
  if (machine.chromiumPath) {
    if (!machine.exists(machine.chromiumPath)) {
      throw new Error(
        `CHROMIUM_PATH is ${machine.chromiumPath}, which does not exist: point it at a Chrome or ` +
          `Chromium binary, or unset it to use ${DEBIAN_CHROMIUM} or the build in @sparticuz/chromium.`,
      );
    }
    return { source: 'CHROMIUM_PATH', executablePath: machine.chromiumPath };
  }
  if (machine.exists(DEBIAN_CHROMIUM)) return { source: 'debian', executablePath: DEBIAN_CHROMIUM };
  if (machine.platform === 'linux' && machine.arch === 'x64') return { source: 'registry' };
  throw new Error(
    `No Chromium for the browser tests on ${machine.platform} ${machine.arch}: the build in ` +
      `@sparticuz/chromium runs on Linux x64 only. Set CHROMIUM_PATH to a Chrome or Chromium binary ` +
      '(on macOS: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome").',
  );
}
