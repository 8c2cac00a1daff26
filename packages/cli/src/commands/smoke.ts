import { writeFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { channelDescriptor, type ChannelId } from '../channels/index.js';
import { missingRealEnv } from '../channels/real.js';
import { CliUsageError, EXIT } from '../errors.js';
import type { CliIO } from '../io.js';
import { writePayloads, writePreview, writeScreenshots } from '../smoke/artefacts.js';
import { runSmokeScenario, type SmokeOutcome } from '../smoke/run.js';
import { SMOKE_SCENARIOS } from '../smoke/scenarios.js';

/** Options of {@link runSmoke}. */
export interface SmokeOptions {
  readonly channels: readonly ChannelId[];
  /** Send to the real chats from the environment instead of the emulators. */
  readonly send: boolean;
  /** Output folder (created). */
  readonly out: string;
  /** Take PNG screenshots (default true; without a browser none are taken, with a note). */
  readonly screenshots: boolean;
  /** Only these scenario ids (default all). */
  readonly scenarios?: readonly string[];
}

/** `result.json` of a smoke run. */
export interface SmokeResult {
  readonly ok: boolean;
  readonly mode: 'emulator' | 'real';
  readonly results: ReadonlyArray<{ scenario: string; channel: string; ok: boolean; reasons: readonly string[] }>;
  readonly screenshots: { readonly files: readonly string[]; readonly note?: string };
}

/**
 * `progresscard smoke`: every scenario of the matrix on every channel; writes the payload JSON,
 * `preview.html`, PNGs and `result.json` into `out`. Resolves with 0 when every scenario passed, else 1.
 * @throws CliUsageError naming the missing variables with `--send`, or an unknown scenario id.
 */
export async function runSmoke(options: SmokeOptions, io: CliIO): Promise<number> {
  const scenarios = options.scenarios ? SMOKE_SCENARIOS.filter((s) => options.scenarios!.includes(s.id)) : SMOKE_SCENARIOS;
  const unknown = (options.scenarios ?? []).filter((id) => !SMOKE_SCENARIOS.some((s) => s.id === id));
  if (unknown.length > 0) throw new CliUsageError(`unknown scenario ${unknown.join(', ')}; known: ${SMOKE_SCENARIOS.map((s) => s.id).join(', ')}`);
  if (options.send) {
    const missing = missingRealEnv(options.channels, io.env);
    if (missing.length > 0) throw new CliUsageError(`smoke --send needs ${missing.join(', ')}; nothing was sent.`);
  }
  const out = resolve(options.out);
  await mkdir(out, { recursive: true });
  const outcomes: SmokeOutcome[] = [];
  for (const scenario of scenarios) {
    for (const id of options.channels) {
      const descriptor = channelDescriptor(id);
      const target = options.send
        ? { kind: 'real' as const, plugin: () => descriptor.real.plugin(io.env, { switchEnv: io.env, timeZone: 'UTC' }) }
        : { kind: 'emulator' as const };
      const outcome = await runSmokeScenario(descriptor, scenario, target);
      outcomes.push(outcome);
      io.stderr.write(`${outcome.ok ? 'pass' : 'FAIL'} ${id.padEnd(9)} ${scenario.id}${outcome.ok ? '' : `: ${outcome.reasons.join('; ')}`}\n`);
    }
  }
  await writePayloads(out, outcomes);
  const channels = options.channels.map((id) => ({ id, label: channelDescriptor(id).label }));
  const preview = await writePreview(out, scenarios, channels, outcomes);
  const screenshots = options.screenshots ? await writeScreenshots(out, preview, scenarios) : { files: [], note: 'no screenshots (--no-screenshots)' };
  if (screenshots.note) io.stderr.write(`${screenshots.note}\n`);
  const result: SmokeResult = {
    ok: outcomes.every((o) => o.ok),
    mode: options.send ? 'real' : 'emulator',
    results: outcomes.map(({ scenario, channel, ok, reasons }) => ({ scenario, channel, ok, reasons })),
    screenshots,
  };
  await writeFile(join(out, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  io.stdout.write(`smoke: ${outcomes.filter((o) => o.ok).length}/${outcomes.length} passed; artefacts in ${out}\n`);
  return result.ok ? EXIT.ok : EXIT.failed;
}
