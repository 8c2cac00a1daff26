import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeHtml } from '../preview/markdown.js';
import { launchChromium } from './chromium.js';
import type { SmokeOutcome } from './run.js';
import type { SmokeScenario } from './scenarios.js';

// `static/` sits next to `src/` and `dist/`, so the same relative URL works from both.
const STYLE_CSS = new URL('../../static/style.css', import.meta.url);

/** Writes each outcome's payload JSON to `<out>/<channel>/<scenario>.json`. */
export async function writePayloads(out: string, outcomes: readonly SmokeOutcome[]): Promise<void> {
  for (const outcome of outcomes) {
    await mkdir(join(out, outcome.channel), { recursive: true });
    const body = { scenario: outcome.scenario, channel: outcome.channel, payloads: outcome.payloads, ...(outcome.running === undefined ? {} : { running: outcome.running }) };
    await writeFile(join(out, outcome.channel, `${outcome.scenario}.json`), `${JSON.stringify(body, null, 2)}\n`);
  }
}

/** `preview.html`: one row per scenario, the channels' cards side by side. */
export async function writePreview(out: string, scenarios: readonly SmokeScenario[], channels: readonly { id: string; label: string }[], outcomes: readonly SmokeOutcome[]): Promise<string> {
  const css = await readFile(STYLE_CSS, 'utf8');
  const rows = scenarios.map((scenario) => {
    const cells = channels.map((channel) => {
      const outcome = outcomes.find((o) => o.scenario === scenario.id && o.channel === channel.id);
      const status = outcome?.ok ? '<b class="pass">pass</b>' : `<b class="fail">fail</b> ${escapeHtml((outcome?.reasons ?? ['not run']).join('; '))}`;
      const cards = outcome && outcome.html.length > 0 ? outcome.html.join('') : '<div class="empty">sent to the real chat</div>';
      return `<div class="panel"><div class="panel-head"><h2>${escapeHtml(channel.label)}</h2><span class="counts">${status}</span></div><div class="chat">${cards}</div></div>`;
    });
    return `<section class="scenario" id="scenario-${scenario.id}"><h1>${escapeHtml(scenario.title)}</h1><div class="panels">${cells.join('')}</div></section>`;
  });
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>progresscard smoke</title><style>${css}
.scenario h1 { font-size: 16px; margin: 16px 20px 0; } .pass { color: var(--green); } .fail { color: var(--red); }</style></head><body>${rows.join('\n')}</body></html>\n`;
  const file = join(out, 'preview.html');
  await writeFile(file, html);
  return file;
}

/** What {@link writeScreenshots} did. */
export interface ScreenshotResult {
  /** PNG files written, relative to the output folder. */
  readonly files: readonly string[];
  /** Why there are none (or fewer than asked), when so. */
  readonly note?: string;
}

/** Longest one screenshot (or page load) may take, in ms. */
const SCREENSHOT_TIMEOUT_MS = 120_000;

/**
 * PNGs of `preview.html` in headless Chromium: `preview.png` (the whole page) and
 * `png/<scenario>.png` per scenario. Without a browser (or `playwright-core`) writes none and says why.
 */
export async function writeScreenshots(out: string, previewFile: string, scenarios: readonly SmokeScenario[]): Promise<ScreenshotResult> {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  try {
    browser = await launchChromium();
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { files: [], note: `no screenshots: no headless Chromium (${why}); set CHROMIUM_PATH, install chromium, or add playwright-core and @sparticuz/chromium` };
  }
  const files: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // A full-page shot of every channel's column took over Playwright's default 30 s on a loaded machine.
    page.setDefaultTimeout(SCREENSHOT_TIMEOUT_MS);
    await page.goto(`file://${previewFile}`);
    await mkdir(join(out, 'png'), { recursive: true });
    await page.screenshot({ path: join(out, 'preview.png'), fullPage: true });
    files.push('preview.png');
    for (const scenario of scenarios) {
      const file = join('png', `${scenario.id}.png`);
      await page.locator(`#scenario-${scenario.id}`).screenshot({ path: join(out, file) });
      files.push(file);
    }
    return { files };
  } catch (error) {
    // The payloads and preview.html are the result; a screenshot that fails is a note, not a lost run.
    return { files, note: `screenshots stopped after ${files.length}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  } finally {
    await browser.close();
  }
}
