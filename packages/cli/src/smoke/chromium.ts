import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/**
 * The headless browser `smoke` takes screenshots with (and the repo's browser tests use). Both
 * `playwright-core` and `@sparticuz/chromium` (optional peers of the CLI)
 * are loaded only when needed, so the CLI works without them: `smoke` then writes no PNGs and says why.
 */

/** Debian's chromium (`apt-get install chromium`), what CI installs. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Flags for every headless browser (root in CI needs `--no-sandbox`; no network but loopback). */
const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Which Chromium is driven, and why that one. */
export interface ChromiumChoice {
  readonly executablePath: string;
  readonly source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

/** What {@link findChromium} looks at (the real environment and file system by default). */
export interface ChromiumLookup {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly exists?: (path: string) => boolean;
  /** The bundled Chromium; default: `@sparticuz/chromium`, unpacked into the temp folder on first use. */
  readonly bundled?: () => Promise<string>;
}

async function sparticuzChromium(): Promise<string> {
  const { default: bundled } = await import('@sparticuz/chromium');
  return bundled.executablePath();
}

/**
 * Picks the browser, in order: `CHROMIUM_PATH` (must exist), Debian's `/usr/bin/chromium`, then the
 * Chromium shipped compressed inside the `@sparticuz/chromium` npm package.
 * @throws Error naming `CHROMIUM_PATH` and its value when it points nowhere; the import error when
 *   no system browser exists and `@sparticuz/chromium` is not installed.
 */
export async function findChromium(lookup: ChromiumLookup = {}): Promise<ChromiumChoice> {
  const env = lookup.env ?? process.env;
  const exists = lookup.exists ?? existsSync;
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    if (!exists(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist; unset it to use ${SYSTEM_CHROMIUM} or the bundled @sparticuz/chromium`);
    return { executablePath: configured, source: 'CHROMIUM_PATH' };
  }
  if (exists(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: 'system' };
  return { executablePath: await (lookup.bundled ?? sparticuzChromium)(), source: '@sparticuz/chromium' };
}

/**
 * Launches the headless browser {@link findChromium} picks.
 * @throws Error when `playwright-core` (an optional peer of the CLI) is not installed or no browser is found (see {@link findChromium}).
 */
export async function launchChromium(lookup: ChromiumLookup = {}): Promise<Browser> {
  const { executablePath } = await findChromium(lookup);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
}
