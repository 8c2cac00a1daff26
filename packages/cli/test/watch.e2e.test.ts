/**
 * `progresscard watch` against a session file being written: a writer process appends a bundled
 * Claude Code transcript line by line with its recorded timing (scaled); watch mirrors it onto a
 * Feishu card over the emulator, is restarted mid-run, and the one card it made ends as the card
 * `replay` makes of the same file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledTraces } from '@progresscard/sources';
import { startEmulators, type Emulators } from '../src/channels/emulated.js';
import { feishuChannel } from '../src/channels/feishu.js';
import { runWatch } from '../src/commands/watch.js';
import { replayTrace } from '../src/replay/engine.js';
import { loadTrace } from '../src/replay/trace.js';
import { fixture, memoryIO } from './helpers.js';

const TRACE = bundledTraces().find((t) => t.name === 'claude-session-parallel-tasks.jsonl')!;
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Starts the writer process; resolves `written(n)` once it wrote n lines, `done` when it exits. */
function startWriter(destination: string) {
  const child: ChildProcess = spawn(process.execPath, [fixture('append-trace.mjs'), TRACE.path, destination, '0.002', '150'], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.push(() => child.kill());
  let lines = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    lines += (chunk.toString().match(/wrote/g) ?? []).length;
    for (const waiter of waiters.filter((w) => lines >= w.n)) waiter.resolve();
  });
  const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { written: (n: number) => new Promise<void>((resolve) => (lines >= n ? resolve() : waiters.push({ n, resolve }))), done };
}

/** One `watch` run in this process, stopped like Ctrl-C. */
function startWatch(dir: string, statePath: string, emulators: Emulators, idleMs = 1500) {
  const env = Object.fromEntries(emulators.channel('feishu')!.env().map((line) => [line.name, line.value]));
  const { io, abort, out, err } = memoryIO(env);
  const finished = runWatch({ dirs: [dir], statePath, idleMs, channels: ['feishu'], real: true, preview: false, port: 0, locale: 'en' }, io);
  return { stop: async () => { abort(); return finished; }, out, err };
}

/** A sessions folder, a Feishu emulator and one `watch` of the folder with `idleMs`, all undone after the test. */
async function watchedFolder(prefix: string, idleMs: number) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions, { recursive: true });
  const emulators = await startEmulators(['feishu']);
  cleanup.push(() => emulators.close());
  const watch = startWatch(sessions, join(dir, 'state.json'), emulators, idleMs);
  cleanup.push(() => watch.stop());
  // watch is up before the first line is written (the file is then a new session, mirrored from its start).
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { sessions, watch, feishu: emulators.emulator(feishuChannel)! };
}

/** A Claude Code transcript written line by line: a user turn, a tool call, its result, the answer (`stop_reason: end_turn`). */
function claudeTranscript(file: string) {
  const now = Date.now();
  const record = (offset: number, fields: Record<string, unknown>) => `${JSON.stringify({ sessionId: 's', uuid: `u${offset}`, timestamp: new Date(now + offset).toISOString(), ...fields })}\n`;
  const assistant = (offset: number, id: string, content: unknown[], stop: string) =>
    record(offset, { type: 'assistant', message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: stop, usage: { input_tokens: 100, output_tokens: 10 } } });
  return {
    /** The user's question and the Bash tool call: the run is under way. */
    start: () => {
      appendFileSync(file, record(0, { type: 'user', message: { role: 'user', content: 'List the files' } }));
      appendFileSync(file, assistant(100, 'msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }], 'tool_use'));
    },
    /** The tool's result and the answer ending the turn. */
    end: () => {
      appendFileSync(file, record(200, { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'README.md' }] } }));
      appendFileSync(file, assistant(300, 'msg_2', [{ type: 'text', text: 'One file: README.md.' }], 'end_turn'));
    },
  };
}

/** A Feishu card as JSON, without the clock time the footer shows (when it was sent). */
const comparable = (card: unknown) => JSON.stringify(card).replace(/ · \d{2}:\d{2}(?=<\/font>)/g, '');

describe('progresscard watch', () => {
  it('mirrors a session file as it is written, continues the same card after a restart, and ends as replay does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-watch-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const statePath = join(dir, 'state', 'watch-state.json');
    const sessions = join(dir, 'sessions');
    const session = join(sessions, 'session.jsonl');
    const emulators = await startEmulators(['feishu']);
    cleanup.push(() => emulators.close());
    const feishu = emulators.emulator(feishuChannel)!;

    // The folder exists before watch starts; the session file appears once watch runs (a new session).
    mkdirSync(sessions, { recursive: true });
    let watch = startWatch(sessions, statePath, emulators);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const writer = startWriter(session);
    await writer.written(20);
    await expect.poll(() => feishu.messages().length, { timeout: 10_000 }).toBe(1);
    // Restart mid-run: the next watch reads the state and continues the card on the same message.
    // Ctrl-C is an interrupt: exit 130, as `--help` documents.
    expect(await watch.stop()).toBe(130);
    watch = startWatch(sessions, statePath, emulators);
    cleanup.push(() => watch.stop());
    await writer.done;
    const card = () => feishu.messages()[0]!.card;
    await expect.poll(() => JSON.stringify(card()), { timeout: 15_000 }).toContain('Completed');
    expect(feishu.messages()).toHaveLength(1);
    expect(watch.out()).toContain('continuing run 1');

    // The same file replayed (no gap cap) onto a second emulator.
    const other = await startEmulators(['feishu']);
    cleanup.push(() => other.close());
    const trace = await loadTrace(session, 'session.jsonl');
    const replayed = await replayTrace({ trace, channels: [other.channels[0]!.plugin({ tickMs: 3000 })], speed: 1000, locale: 'en' });
    const replayCard = other.channels[0]!.finalPayload(replayed.cards[0]!.final!.message!.id);
    expect(comparable(card())).toBe(comparable(replayCard));
  }, 60_000);

  it('ends a Claude Code turn at stop_reason end_turn, without waiting for the idle timeout', async () => {
    // An idle timeout far longer than the test: only the end_turn line can end the run in time.
    const { sessions, feishu, watch } = await watchedFolder('pc-watch-end-turn-', 600_000);
    const file = join(sessions, 'session.jsonl');
    const transcript = claudeTranscript(file);
    transcript.start();
    await expect.poll(() => feishu.messages().length, { timeout: 10_000 }).toBe(1);
    transcript.end();
    await expect.poll(() => JSON.stringify(feishu.messages()[0]!.card), { timeout: 15_000 }).toContain('Completed');
    expect(JSON.stringify(feishu.messages()[0]!.card)).toContain('One file: README.md.');
    // The user is told the run ended and where its card is; Ctrl-C then closes with a summary and exit 130.
    const messageId = feishu.messages()[0]!.messageId;
    await expect.poll(() => watch.out(), { timeout: 15_000 }).toContain(`run 1 of ${file} completed: card on feishu message ${messageId}`);
    expect(await watch.stop()).toBe(130);
    expect(watch.out()).toContain('progresscard watch stopped (interrupted by Ctrl-C or SIGTERM): 1 run ended; 0 runs still open.');
    expect(watch.err()).toBe('');
  }, 60_000);

  it('a run still going at Ctrl-C is named in the closing lines with the message its card continues on', async () => {
    const { sessions, feishu, watch } = await watchedFolder('pc-watch-open-', 600_000);
    const file = join(sessions, 'session.jsonl');
    claudeTranscript(file).start();
    await expect.poll(() => feishu.messages().length, { timeout: 10_000 }).toBe(1);
    const messageId = feishu.messages()[0]!.messageId;
    expect(await watch.stop()).toBe(130);
    expect(watch.out()).toContain('progresscard watch stopped (interrupted by Ctrl-C or SIGTERM): 0 runs ended; 1 run still open.');
    expect(watch.out()).toContain(`run 1 of ${file} stays open; the next watch continues it on feishu message ${messageId}`);
  }, 60_000);

  it('a final card the platform refuses is reported with its reason, and watch exits 1', async () => {
    const { sessions, feishu, watch } = await watchedFolder('pc-watch-refused-', 600_000);
    const file = join(sessions, 'session.jsonl');
    const transcript = claudeTranscript(file);
    transcript.start();
    await expect.poll(() => feishu.messages().length, { timeout: 10_000 }).toBe(1);
    // From now on the bot is out of the chat: every card call is refused (230002, a permanent target error).
    const outOfChat = { status: 400, body: { code: 230002, msg: 'The bot can not be outside the group.' } };
    for (const route of ['im.message.create', 'im.message.reply', 'im.message.patch', 'cardkit.card.create', 'cardkit.card.update', 'cardkit.card.settings', 'cardkit.element.content']) {
      feishu.faults.add({ route, respond: outOfChat });
    }
    transcript.end();
    await expect.poll(() => watch.err(), { timeout: 30_000 }).toContain(`run 1 of ${file}: its final card did not reach feishu`);
    expect(watch.err()).toContain('230002');
    expect(await watch.stop()).toBe(1);
    expect(watch.out()).toContain('1 run ended, 1 final card not delivered (above); 0 runs still open.');
  }, 60_000);

  it('ends a Codex run whose rollout stops without its end record once the file stayed quiet for 10 × --idle (3 s here)', async () => {
    const { sessions, feishu } = await watchedFolder('pc-watch-codex-', 300);
    // The first 40 records of a bundled Codex rollout: the run is under way, and its end is never written.
    const rollout = bundledTraces().find((t) => t.name === 'codex-rollout-plain.jsonl')!;
    const head = readFileSync(rollout.path, 'utf8').split('\n').slice(0, 40).join('\n');
    appendFileSync(join(sessions, 'rollout-2025-09-19T09-02-12-stopped.jsonl'), `${head}\n`);
    await expect.poll(() => feishu.messages().length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => JSON.stringify(feishu.messages()[0]!.card), { timeout: 30_000 }).toContain('Cancelled');
    expect(JSON.stringify(feishu.messages()[0]!.card)).toContain('without recording');
    expect(feishu.messages()).toHaveLength(1);
  }, 60_000);
});
