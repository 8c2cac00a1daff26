/** The browser lookup lives in the CLI (its `smoke` command takes screenshots); the tests use the same one. */
export { findChromium, launchChromium, SYSTEM_CHROMIUM } from '@progresscard/cli';
