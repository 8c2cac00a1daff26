/**
 * The adapters against the real clients: the Claude Code binary (under the Claude Agent SDK) and
 * the Codex binary (under the Codex SDK), both installed as dev dependencies, talk to small local
 * model servers on 127.0.0.1 (the Anthropic Messages and OpenAI Responses streaming protocols,
 * see ./mock-anthropic.ts and ./mock-openai.ts). Scripted sessions: a shell call that really
 * sleeps, a file read, a streamed answer with usage, an error mid-stream, an abort. The cards are
 * asserted as a user sees them: status, tool lines, answer, footer.
 *
 * Bounded: each session is a few seconds of real time; nothing leaves the machine (the binaries
 * get a private HOME / CODEX_HOME / CLAUDE_CONFIG_DIR and only the mock's loopback address).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { Codex } from '@openai/codex-sdk';
import type { ProgressCard } from '@progresscard/core';
import { mirrorClaudeAgent } from '@progresscard/adapters/claude-agent-sdk';
import { mirrorCodex } from '@progresscard/adapters/codex-sdk';
import { memoryHarness, type MemoryHarness } from '../harness.js';
import { mockAnthropic, type MockModelServer, type ModelTurn } from './mock-anthropic.js';
import { mockOpenAIResponses } from './mock-openai.js';

const ANSWER = 'The command printed done and the notes file says: ship on Friday.';
let work: string;
let notes: string;
let h: MemoryHarness;
const servers: MockModelServer[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'pc-real-clients-'));
  notes = join(work, 'notes.txt');
  writeFileSync(notes, 'ship on Friday\n');
  h = memoryHarness();
});
afterAll(async () => {
  await h.cards.shutdown();
  await Promise.all(servers.map((server) => server.close()));
  rmSync(work, { recursive: true, force: true });
});

/** Samples the card while `run` goes on: the longest running time any tool line showed, and when. */
function watchCard(card: ProgressCard) {
  let longest = 0;
  const running = new Set<string>();
  const timer = setInterval(() => {
    for (const tool of card.view().tools) {
      if (tool.state !== 'running') continue;
      running.add(`${tool.name}: ${tool.detail}`);
      longest = Math.max(longest, tool.elapsedMs);
    }
  }, 100);
  return { stop: () => clearInterval(timer), longest: () => longest, running };
}

/**
 * Resolves once a tool line of `card` shows running; rejects if `mirrored` settles first (the run
 * ended, or its tool was refused, before anything ran), so a broken session fails with the card's
 * state instead of waiting for the test timeout.
 */
function untilToolRuns(card: ProgressCard, mirrored: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (!card.view().tools.some((tool) => tool.state === 'running')) return;
      clearInterval(timer);
      resolve();
    }, 50);
    const ended = () => {
      clearInterval(timer);
      const view = card.view();
      reject(new Error(`the run ended before a tool ran: ${view.status}, tools ${JSON.stringify(view.tools.map((tool) => [tool.name, tool.state, tool.summary]))}`));
    };
    mirrored.then(ended, ended);
  });
}

describe('Claude Code (Claude Agent SDK) against a local Anthropic Messages server', () => {
  const start = async (turns: ModelTurn[], abort?: AbortController) => {
    const server = await mockAnthropic(turns, (body) => Array.isArray(body.tools) && body.tools.some((tool: { name?: string }) => tool.name === 'Bash'));
    servers.push(server);
    const home = mkdtempSync(join(work, 'claude-home-'));
    const env = { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_CONFIG_DIR: home, ANTHROPIC_BASE_URL: server.baseUrl, ANTHROPIC_API_KEY: 'sk-ant-loopback', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    const messages = query({ prompt: 'Run the check and read the notes', options: { env, cwd: work, model: 'claude-sonnet-4-5', allowedTools: ['Bash', 'Read'], ...(abort ? { abortController: abort } : {}) } });
    return { server, messages };
  };

  it('a sleeping shell call, a read and a streamed answer: live tool lines, the answer, the model and tokens in the footer', async () => {
    const { messages } = await start([
      { tool: 'Bash', input: { command: 'sleep 2 && echo done', description: 'Wait, then print done' } },
      { tool: 'Read', input: { file_path: notes } },
      { text: ANSWER },
    ]);
    const card = h.open();
    const seen = watchCard(card);
    const outcome = await mirrorClaudeAgent(messages, card, { title: 'Run the check' });
    seen.stop();
    expect(outcome).toEqual({ status: 'completed' });
    expect([...seen.running]).toContain('Bash: sleep 2 && echo done');
    expect(seen.longest()).toBeGreaterThan(500);
    const view = card.view();
    expect(view.tools.map((tool) => [tool.name, tool.detail, tool.state])).toEqual([
      ['Bash', 'sleep 2 && echo done', 'finished'],
      ['Read', notes, 'finished'],
    ]);
    expect(view.tools[0]!.summary).toBe('done');
    expect(view.answer).toBe(ANSWER);
    expect(view.footer).toMatchObject({ model: 'claude-sonnet-4-5', toolCount: 2 });
    expect(view.footer.inputTokens).toBeGreaterThan(0);
    expect(view.footer.outputTokens).toBeGreaterThan(0);
    const payload = await h.finalPayload(card);
    expect(payload).toMatchObject({ status: 'completed', title: 'Run the check', answer: ANSWER });
  }, 180_000);

  it('an error mid-stream is retried by Claude Code: the card completes with the retried answer alone', async () => {
    const { server, messages } = await start([{ text: 'The command prin', errorAfter: 16 }, { text: ANSWER }]);
    const card = h.open();
    expect(await mirrorClaudeAgent(messages, card)).toEqual({ status: 'completed' });
    expect(card.view().answer).toBe(ANSWER);
    expect(await h.finalPayload(card)).toMatchObject({ status: 'completed', answer: ANSWER });
    // Claude Code 2.1.332 retries a broken stream as one non-streaming request.
    expect(server.requests.filter((r) => r.path.endsWith('/v1/messages') && Array.isArray(r.body.tools) && r.body.tools.length > 0).length).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('a model API that keeps refusing the request (400): a failed final with the API\'s message, no synthetic answer', async () => {
    // Every main-loop request is refused (Claude Code retries some 400s, e.g. without tool schemas).
    const refused: ModelTurn = { status: 400, message: 'request refused by the test server' };
    const { messages } = await start(Array.from({ length: 20 }, () => refused));
    const card = h.open();
    const outcome = await mirrorClaudeAgent(messages, card).catch(() => ({ status: card.view().status, error: card.view().error }));
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/request refused by the test server/);
    const final = await h.finalPayload(card);
    expect(final).toMatchObject({ status: 'failed' });
    expect(final.answer).not.toMatch(/API Error/);
  }, 180_000);

  it('an abort while the shell call sleeps ends the card cancelled, the call interrupted', async () => {
    const abort = new AbortController();
    // Not a leading `sleep 30`: Claude Code 2.1.x's Bash tool refuses a command that starts with a
    // sleep of 25 s or more ("Blocked: standalone sleep 30", its validateInput) within ~100 ms, so the
    // call was running on the card only until the refusal arrived and the run then completed.
    const { messages } = await start([{ tool: 'Bash', input: { command: 'echo started && sleep 30', description: 'Sleep long' } }], abort);
    const card = h.open();
    const mirrored = mirrorClaudeAgent(messages, card, { signal: abort.signal }).then(
      () => 'resolved',
      () => 'rejected',
    );
    await untilToolRuns(card, mirrored);
    abort.abort();
    // The card is cancelled at the abort, before the SDK's stream has ended.
    expect(card.view().status).toBe('cancelled');
    expect(['resolved', 'rejected']).toContain(await mirrored);
    const view = card.view();
    expect(view.status).toBe('cancelled');
    expect(view.tools.map((tool) => [tool.name, tool.detail, tool.state])).toEqual([['Bash', 'echo started && sleep 30', 'interrupted']]);
    expect((await h.finalPayload(card)).status).toBe('cancelled');
  }, 180_000);
});

describe('Codex (Codex SDK) against a local OpenAI Responses server', () => {
  const start = async (turns: ModelTurn[]) => {
    const server = await mockOpenAIResponses(turns);
    servers.push(server);
    const home = mkdtempSync(join(work, 'codex-home-'));
    const codex = new Codex({
      env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: home, MOCK_API_KEY: 'sk-loopback' },
      // A provider of its own: no WebSocket attempt (the mock speaks HTTP streaming), no retries.
      config: { model_provider: 'mock', model_providers: { mock: { name: 'mock', base_url: `${server.baseUrl}/v1`, wire_api: 'responses', env_key: 'MOCK_API_KEY', supports_websockets: false, request_max_retries: 0, stream_max_retries: 0 } } },
    });
    const thread = codex.startThread({ model: 'gpt-5.5-codex', workingDirectory: work, skipGitRepoCheck: true, approvalPolicy: 'never', sandboxMode: 'danger-full-access' });
    return { server, thread };
  };

  it('a sleeping command and a streamed answer: exec_command lines named as watch names them, usage and model', async () => {
    const { thread } = await start([{ tool: 'exec_command', input: { cmd: 'sleep 2 && echo done' } }, { tool: 'exec_command', input: { cmd: `cat ${notes}` } }, { text: ANSWER }]);
    const { events } = await thread.runStreamed('Run the check and read the notes');
    const card = h.open();
    const seen = watchCard(card);
    const outcome = await mirrorCodex(events, card, { title: 'Run the check', model: 'gpt-5.5-codex' });
    seen.stop();
    expect(outcome).toEqual({ status: 'completed' });
    expect([...seen.running]).toContain('exec_command: sleep 2 && echo done');
    expect(seen.longest()).toBeGreaterThan(500);
    const view = card.view();
    expect(view.tools.map((tool) => [tool.name, tool.detail, tool.state, tool.summary])).toEqual([
      ['exec_command', 'sleep 2 && echo done', 'finished', 'done'],
      ['exec_command', `cat ${notes}`, 'finished', 'ship on Friday'],
    ]);
    expect(view.answer).toBe(ANSWER);
    expect(view.footer).toMatchObject({ model: 'gpt-5.5-codex' });
    expect(view.footer.inputTokens).toBeGreaterThan(0);
    expect(await h.finalPayload(card)).toMatchObject({ status: 'completed', title: 'Run the check', answer: ANSWER });
  }, 180_000);

  it('a response that fails mid-stream fails the card with the model error', async () => {
    const { thread } = await start([{ text: 'The command prin', errorAfter: 16 }]);
    const { events } = await thread.runStreamed('Answer');
    const card = h.open();
    const outcome = await mirrorCodex(events, card).catch(() => ({ status: card.view().status, error: card.view().error }));
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/overloaded/i);
    const final = await h.finalPayload(card);
    expect(final.status).toBe('failed');
    expect(final.error).toMatch(/overloaded/i);
  }, 180_000);

  it('an abort while the command sleeps ends the card cancelled', async () => {
    const { thread } = await start([{ tool: 'exec_command', input: { cmd: 'sleep 30' } }]);
    const abort = new AbortController();
    const { events } = await thread.runStreamed('Sleep', { signal: abort.signal });
    const card = h.open();
    const mirrored = mirrorCodex(events, card, { signal: abort.signal }).catch(() => undefined);
    await untilToolRuns(card, mirrored);
    abort.abort();
    await mirrored;
    expect(card.view().status).toBe('cancelled');
    expect((await h.finalPayload(card)).status).toBe('cancelled');
  }, 180_000);
});
