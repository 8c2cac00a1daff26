import { describeChannelConformance, type ConformanceDriver, type ConformanceFault } from '@progresscard/core/testing/conformance';
import { DEFAULT_SLACK_WORKSPACE, startSlackEmulator, type FaultResponse } from '@progresscard/emulator';
import { WebClient } from '@slack/web-api';
import { slack, type SlackInteractivity } from '../src/index.js';

const SIGNING_SECRET = 'slack-signing-secret-1';

/** Slack's answer to each fault (https://api.slack.com/apis/rate-limits: HTTP 429 with Retry-After in seconds; errors are HTTP 200 `{ ok: false, error }`). */
function answer(fault: ConformanceFault): FaultResponse {
  switch (fault.kind) {
    case 'rate-limited':
      return { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': String(Math.ceil(fault.retryAfterMs / 1000)) } };
    case 'auth':
      return { status: 200, body: { ok: false, error: 'invalid_auth' } };
    case 'transient':
      return { status: 500, body: { ok: false, error: 'internal_error' } };
    case 'not-modified':
      throw new Error('chat.update accepts an edit that changes nothing');
  }
}

/** Every text a Slack message shows: its `text`, each text object of its blocks and the titles of plan and task_card blocks. */
function shownText(message: { text: string; blocks: unknown[] | undefined }): string {
  const texts: string[] = [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if ((key === 'text' || key === 'title') && typeof inner === 'string') texts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(message.blocks);
  return texts.join('\n');
}

const driver: ConformanceDriver = {
  name: 'slack (emulator on loopback)',
  async start(setup) {
    const emulator = await startSlackEmulator({});
    const plugin = slack(
      {
        botToken: DEFAULT_SLACK_WORKSPACE.botToken,
        channel: DEFAULT_SLACK_WORKSPACE.channel,
        apiUrl: emulator.apiUrl,
        ...setup.timing,
        ...(setup.interaction ? { interactivity: { signingSecret: SIGNING_SECRET, port: 0 } } : {}),
      },
      { env: {} },
    );
    const routes = { send: 'chat.postMessage', update: 'chat.update' } as const;
    return {
      plugin,
      messages: () =>
        emulator.messages().map((m) => ({
          id: m.ts,
          text: shownText(m),
          calls: m.history.map((call) => ({ op: call.route === routes.send ? 'send' : 'update', at: call.receivedAt ?? call.at, refused: call.outcome !== 'accepted' }) as const),
          ...(m.threadTs === undefined ? {} : { replyTo: m.threadTs }),
        })),
      fail: (op, fault, times = 1) => void emulator.faults.add({ route: routes[op], times, respond: answer(fault) }),
      remove: (ts) => emulator.deleteMessage(ts),
      maxInFlight: () => Math.max(0, ...emulator.messages().map((m) => m.maxConcurrentCalls)),
      ...(setup.interaction
        ? {
            async click({ messageId, user, control }) {
              const server = plugin.interaction as SlackInteractivity;
              if (server.url === undefined) throw new Error('the interactivity server is not listening');
              emulator.configureInteractivity({ url: server.url, signingSecret: SIGNING_SECRET });
              const button = control.kind === 'choice' ? control.label : control.kind === 'stop' ? 'pc_stop' : control.kind === 'approve' ? 'Approve' : 'Deny';
              // The button appears once the card's update lands; a click after it is gone (decided) is a no-op.
              const until = Date.now() + 3000;
              for (;;) {
                const result = await emulator.click({ ts: messageId, user, button });
                if (result.error !== 'no-such-button' || Date.now() > until) return;
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
            },
          }
        : {}),
      close: () => emulator.close(),
    };
  },
  async startStreaming(setup) {
    const emulator = await startSlackEmulator({ limits: { streamLifetimeMs: setup.streamLifetimeMs } });
    const plugin = slack(
      { botToken: DEFAULT_SLACK_WORKSPACE.botToken, channel: DEFAULT_SLACK_WORKSPACE.channel, apiUrl: emulator.apiUrl, ...setup.timing, streaming: { lifetimeMs: setup.streamLifetimeMs } },
      { env: {} },
    );
    const client = new WebClient(DEFAULT_SLACK_WORKSPACE.botToken, { slackApiUrl: emulator.apiUrl, retryConfig: { retries: 0 } });
    const streams = () => emulator.messages().filter((m) => m.stream);
    return {
      plugin,
      messages: () => emulator.messages().map((m) => ({ id: m.ts, text: shownText(m), calls: [], ...(m.threadTs === undefined ? {} : { replyTo: m.threadTs }) })),
      fail: (op, fault, times = 1) => void emulator.faults.add({ route: op === 'send' ? 'chat.startStream' : 'chat.appendStream', times, respond: answer(fault) }),
      remove: (ts) => emulator.deleteMessage(ts),
      maxInFlight: () => Math.max(0, ...emulator.messages().map((m) => m.maxConcurrentCalls)),
      // Slack streams only thread replies: the card answers a question posted in the channel.
      async streamedCard() {
        const question = await client.chat.postMessage({ channel: DEFAULT_SLACK_WORKSPACE.channel, text: 'please' });
        return { replyTo: { messageId: question.ts!, inThread: true } };
      },
      streams: () => streams().map((m) => ({ id: m.ts, text: m.text })),
      stopStream: (ts) => void emulator.stopStreamByUser(ts),
      close: () => emulator.close(),
    };
  },
};

describeChannelConformance(driver);
