import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearRegisteredChannels, EXIT, main, type SmokeResult } from '../src/index.js';
import { fixture, memoryIO } from './helpers.js';

const ECHO = fixture('echo-plugin/echo-channel.mjs');

afterEach(() => clearRegisteredChannels());

describe('channels from plugin modules (--plugin, progresscard.config.mjs)', () => {
  it('replays a trace through a plugin written outside this repo, to its own fake platform', async () => {
    const t = memoryIO({});
    const code = await main(['replay', fixture('short-run.events.jsonl'), '--plugin', ECHO, '--channel', 'echo', '--json', '--speed', '30'], t.io);
    expect(code).toBe(EXIT.ok);
    expect(t.err()).toContain('echo emulator: http://127.0.0.1:');
    const parsed = JSON.parse(t.out()) as {
      summary: { channels: Array<{ channel: string; statuses: string[]; ok: boolean; calls: number; countsFrom: string }> };
      cards: Array<{ channel: string; status: string; delivered: boolean; payloadSource: string; payload: { title: string; answer: string; footer: string } }>;
    };
    expect(parsed.summary.channels.map((c) => [c.channel, c.statuses, c.ok])).toEqual([['echo', ['completed'], true]]);
    // send + at least the final update, as the CLI recorded them on the plugin's transport
    expect(parsed.summary.channels[0]!.calls).toBeGreaterThanOrEqual(2);
    const card = parsed.cards[0]!;
    expect(card).toMatchObject({ channel: 'echo', status: 'completed', delivered: true });
    expect(card.payload.title).toBe('Fix the flaky test');
    expect(card.payload.answer).toContain('race');
  }, 60_000);

  it('reads the channels of progresscard.config.mjs in the working directory, for plan and doctor', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'progresscard-config-'));
    writeFileSync(join(dir, 'progresscard.config.mjs'), `import echo from ${JSON.stringify(ECHO)};\nexport default { channels: [echo] };\n`);
    const plan = memoryIO({});
    expect(await main(['plan', '--channel', 'echo', '--json'], { ...plan.io, cwd: dir })).toBe(EXIT.ok);
    const planned = JSON.parse(plan.out()) as { channels: Array<{ channel: string; plan: Record<string, unknown> }> };
    expect(planned.channels.map((c) => c.channel)).toEqual(['echo']);
    // the plan is computed from the budget the plugin declares (20 calls a second), not a built-in channel's
    const slack = memoryIO({});
    expect(await main(['plan', '--channel', 'slack', '--json'], slack.io)).toBe(EXIT.ok);
    const slackPlan = (JSON.parse(slack.out()) as typeof planned).channels[0]!.plan;
    expect(planned.channels[0]!.plan).not.toEqual(slackPlan);

    const doctor = memoryIO({});
    expect(await main(['doctor', '--emulator', '--channel', 'echo', '--json'], { ...doctor.io, cwd: dir })).toBe(EXIT.ok);
    const report = JSON.parse(doctor.out()) as { ok: boolean; channels: Array<{ channel: string; checks: Array<{ name: string; status: string }> }> };
    expect(report.channels[0]!.channel).toBe('echo');
    expect(report.channels[0]!.checks.filter((c) => c.status === 'fail')).toEqual([]);
  }, 60_000);

  it('runs the smoke matrix on a plugin module and writes its payloads', async () => {
    const out = mkdtempSync(join(tmpdir(), 'progresscard-smoke-echo-'));
    const t = memoryIO({});
    const code = await main(['smoke', '--plugin', ECHO, '--channel', 'echo', '--out', out, '--no-screenshots'], t.io);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as SmokeResult;
    expect(result.results.filter((r) => !r.ok)).toEqual([]);
    expect(code).toBe(EXIT.ok);
    expect(readFileSync(join(out, 'preview.html'), 'utf8')).toContain('class="echo"');
  }, 120_000);

  it('names the module and the field when a plugin module is wrong, before running anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'progresscard-bad-plugin-'));
    writeFileSync(join(dir, 'bad.mjs'), `export default { id: 'Bad Id', plugin: () => ({}) };\n`);
    const bad = memoryIO({});
    expect(await main(['plan', '--plugin', './bad.mjs'], { ...bad.io, cwd: dir })).toBe(EXIT.usage);
    expect(bad.err()).toContain('--plugin ./bad.mjs: channels[0].id must be lowercase letters, digits and dashes, got "Bad Id"');

    const missing = memoryIO({});
    expect(await main(['plan', '--plugin', './nowhere.mjs'], { ...missing.io, cwd: dir })).toBe(EXIT.usage);
    expect(missing.err()).toContain('--plugin ./nowhere.mjs: no such file');

    const taken = memoryIO({});
    writeFileSync(join(dir, 'taken.mjs'), `export default { id: 'slack', plugin: () => ({}) };\n`);
    expect(await main(['plan', '--plugin', './taken.mjs'], { ...taken.io, cwd: dir })).toBe(EXIT.usage);
    expect(taken.err()).toContain('channel id "slack" is already taken');
  });
});
