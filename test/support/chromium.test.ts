import { describe, expect, it } from 'vitest';
import { findChromium, SYSTEM_CHROMIUM } from './chromium.js';

const bundled = async () => '/tmp/chromium';

describe('findChromium', () => {
  it('prefers CHROMIUM_PATH over the system chromium', async () => {
    const choice = await findChromium({ env: { CHROMIUM_PATH: '/opt/chrome/chrome' }, exists: () => true, bundled });
    expect(choice).toEqual({ executablePath: '/opt/chrome/chrome', source: 'CHROMIUM_PATH' });
  });

  it('names CHROMIUM_PATH and its value when it points nowhere', async () => {
    await expect(findChromium({ env: { CHROMIUM_PATH: '/nope/chrome' }, exists: (p) => p === SYSTEM_CHROMIUM, bundled })).rejects.toThrow(
      /CHROMIUM_PATH=\/nope\/chrome does not exist/,
    );
  });

  it('uses Debian chromium when CHROMIUM_PATH is unset', async () => {
    const choice = await findChromium({ env: {}, exists: (p) => p === SYSTEM_CHROMIUM, bundled });
    expect(choice).toEqual({ executablePath: SYSTEM_CHROMIUM, source: 'system' });
  });

  it('falls back to the Chromium bundled in @sparticuz/chromium without apt', async () => {
    const choice = await findChromium({ env: {}, exists: () => false, bundled });
    expect(choice).toEqual({ executablePath: '/tmp/chromium', source: '@sparticuz/chromium' });
  });
});
