import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SLACK_WORKSPACE, startSlackEmulator, type SlackEmulator } from '../src/index.js';
import { setTimeout as sleep } from 'node:timers/promises';

let emulator: SlackEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const { botToken, channel, teamId } = DEFAULT_SLACK_WORKSPACE;
const errorOf = async (promise: Promise<{ ok: boolean; error?: string }>) => {
  const answer = await promise;
  return answer.ok ? 'ok' : answer.error;
};

/** A bare Web API client over fetch (JSON bodies, https://docs.slack.dev/apis/web-api/#posting_json); `ok: false` answers resolve. */
function webClient(apiUrl: string, token: string) {
  const call = async (method: string, args: Record<string, unknown>) => {
    const response = await fetch(`${apiUrl}${method}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(args) });
    return (await response.json()) as { ok: boolean; error?: string; ts?: string };
  };
  const must = async (method: string, args: Record<string, unknown>) => {
    const answer = await call(method, args);
    if (!answer.ok) throw new Error(`${method}: ${answer.error}`);
    return answer;
  };
  return {
    chat: {
      postMessage: (args: Record<string, unknown>) => must('chat.postMessage', args),
      update: (args: Record<string, unknown>) => call('chat.update', args),
      startStream: (args: Record<string, unknown>) => call('chat.startStream', args),
      appendStream: (args: Record<string, unknown>) => call('chat.appendStream', args),
      stopStream: (args: Record<string, unknown>) => call('chat.stopStream', args),
    },
    assistant: { threads: { setStatus: (args: Record<string, unknown>) => call('assistant.threads.setStatus', args) } },
  };
}

async function setup(streamLifetimeMs = 60_000) {
  emulator = await startSlackEmulator({ botTokens: [botToken, 'xoxb-other-app'], limits: { streamLifetimeMs, statusTimeoutMs: 60_000 } });
  const client = webClient(emulator.apiUrl, botToken);
  const thread = (await client.chat.postMessage({ channel, text: 'question' })).ts!;
  const recipients = { recipient_user_id: 'U0ANA', recipient_team_id: teamId };
  return { emulator, client, thread, recipients };
}

describe('Slack emulator: native streams (chat.startStream / appendStream / stopStream) and thread status', () => {
  it('a stream appends text and chunks, stops with blocks, and then refuses appends', async () => {
    const { emulator, client, thread, recipients } = await setup();
    const started = await client.chat.startStream({ channel, thread_ts: thread, ...recipients, task_display_mode: 'plan', chunks: [{ type: 'plan_update', title: 'Plan' }] });
    const ts = started.ts!;
    expect(await errorOf(client.chat.update({ channel, ts, text: 'edit' }))).toBe('streaming_state_conflict');
    await client.chat.appendStream({ channel, ts, chunks: [{ type: 'task_update', id: 't1', title: 'npm test', status: 'in_progress' }, { type: 'markdown_text', text: 'Hello ' }] });
    await client.chat.appendStream({ channel, ts, markdown_text: 'world.' });
    await client.chat.stopStream({ channel, ts, chunks: [{ type: 'task_update', id: 't1', title: 'npm test', status: 'complete' }], blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: 'footer' }] }] });
    const message = emulator.message(ts)!;
    expect(message).toMatchObject({ text: 'Hello world.', threadTs: thread, stream: { state: 'stopped', planTitle: 'Plan', taskDisplayMode: 'plan', recipientUserId: 'U0ANA', tasks: [{ id: 't1', status: 'complete' }] } });
    expect(message.blocks).toHaveLength(1);
    expect(await errorOf(client.chat.appendStream({ channel, ts, markdown_text: 'late' }))).toBe('message_not_in_streaming_state');
    // A stopped stream is an ordinary message again: chat.update works (the SDK maintainers' fallback).
    expect(await errorOf(client.chat.update({ channel, ts, text: 'edited' }))).toBe('ok');
  });

  it('refuses what Slack refuses: no thread, no recipient in a channel, a bad chunk, another app\'s stream, a task status of `completed`', async () => {
    const { client, thread, recipients } = await setup();
    expect(await errorOf(client.chat.startStream({ channel, ...recipients, markdown_text: 'x' }))).toBe('thread_not_found');
    expect(await errorOf(client.chat.startStream({ channel, thread_ts: thread, markdown_text: 'x' }))).toBe('missing_recipient_user_id');
    expect(await errorOf(client.chat.startStream({ channel, thread_ts: thread, recipient_user_id: 'U0ANA', markdown_text: 'x' }))).toBe('missing_recipient_team_id');
    expect(await errorOf(client.chat.startStream({ channel, thread_ts: thread, ...recipients, chunks: [{ type: 'task_update', id: 't', title: 't', status: 'completed' }] }))).toBe('invalid_chunks');
    expect(await errorOf(client.chat.startStream({ channel, thread_ts: thread, ...recipients, markdown_text: 'x'.repeat(12_001) }))).toBe('msg_too_long');
    const ts = (await client.chat.startStream({ channel, thread_ts: thread, ...recipients, markdown_text: 'mine' })).ts!;
    const other = webClient(emulator!.apiUrl, 'xoxb-other-app');
    expect(await errorOf(other.chat.appendStream({ channel, ts, markdown_text: 'theirs' }))).toBe('message_not_owned_by_app');
    expect(await errorOf(client.chat.stopStream({ channel, ts, blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) }))).toBe('msg_blocks_too_many');
  });

  it('a stream outlives its lifetime, or the user presses Stop: later calls are refused with Slack\'s codes', async () => {
    const { emulator, client, thread, recipients } = await setup(300);
    const old = (await client.chat.startStream({ channel, thread_ts: thread, ...recipients, markdown_text: 'a' })).ts!;
    await sleep(400);
    expect(await errorOf(client.chat.appendStream({ channel, ts: old, markdown_text: 'b' }))).toBe('message_not_in_streaming_state');
    expect(emulator.message(old)!.stream!.state).toBe('expired');
    const live = (await client.chat.startStream({ channel, thread_ts: thread, ...recipients, markdown_text: 'a' })).ts!;
    emulator.stopStreamByUser(live);
    expect(await errorOf(client.chat.appendStream({ channel, ts: live, markdown_text: 'b' }))).toBe('stopped_by_user');
    expect(await errorOf(client.chat.stopStream({ channel, ts: live }))).toBe('stopped_by_user');
    expect(() => emulator.stopStreamByUser(old)).toThrow(/does not stream/);
  });

  it('assistant.threads.setStatus shows a status until the app posts in the thread', async () => {
    const { emulator, client, thread, recipients } = await setup();
    await client.assistant.threads.setStatus({ channel_id: channel, thread_ts: thread, status: 'is working…' });
    expect(emulator.threadStatus(channel, thread)).toMatchObject({ status: 'is working…' });
    expect(await errorOf(client.assistant.threads.setStatus({ channel_id: channel, thread_ts: '1.000001', status: 'x' }))).toBe('invalid_thread_ts');
    await client.chat.startStream({ channel, thread_ts: thread, ...recipients, markdown_text: 'answer' });
    expect(emulator.threadStatus(channel, thread)).toBeUndefined();
  });
});
