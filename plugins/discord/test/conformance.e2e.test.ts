import { describeChannelConformance, type ConformanceClick, type ConformanceDriver, type ConformanceFault } from '@progresscard/core/testing/conformance';
import { DEFAULT_DISCORD_APP as APP, startDiscordEmulator, type DiscordMessageSnapshot, type FaultResponse } from '@progresscard/emulator';
import { discord, type DiscordInteractions } from '../src/index.js';

/** Buckets roomy enough for the suite's fast timing; the plugin still learns them from the headers. */
const WIDE_BUCKET = { limit: 1000, windowMs: 1000 };

/**
 * Discord's answer to each fault (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit:
 * 429 with `retry_after` in seconds, a float, and `global`; https://discord.com/developers/docs/topics/opcodes-and-status-codes#http).
 */
function answer(fault: ConformanceFault): FaultResponse {
  switch (fault.kind) {
    case 'rate-limited': {
      const seconds = fault.retryAfterMs / 1000;
      return { status: 429, body: { message: 'You are being rate limited.', retry_after: seconds, global: false }, headers: { 'retry-after': String(Math.ceil(seconds)) } };
    }
    case 'auth':
      return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    case 'transient':
      return { status: 502, body: { message: 'Bad Gateway', code: 0 } };
    case 'not-modified':
      throw new Error('PATCH /channels/{id}/messages/{id} accepts an edit that changes nothing');
  }
}

/** Every text a message shows: its content, each embed's title, description, fields and footer, each button's label. */
function shownText(m: DiscordMessageSnapshot): string {
  const texts: string[] = [m.content];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (['title', 'description', 'text', 'name', 'value', 'label'].includes(key) && typeof inner === 'string') texts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(m.embeds);
  walk(m.components);
  return texts.join('\n');
}

/** The label of each control as the plugin draws it (render/texts.ts, locale en). */
const labelOf = (control: ConformanceClick['control']) => (control.kind === 'choice' ? control.label : control.kind === 'stop' ? '⏹ Stop' : control.kind === 'approve' ? 'Approve' : 'Deny');

const ROUTES = { send: 'messages.create', update: 'messages.edit' } as const;

const driver: ConformanceDriver = {
  name: 'discord (emulator on loopback, limits learned from headers)',
  async start(setup) {
    const emulator = await startDiscordEmulator({ limits: { createBucket: WIDE_BUCKET, editBucket: WIDE_BUCKET, globalPerSecond: 1000 } });
    const plugin = discord(
      {
        botToken: APP.botToken,
        channelId: APP.channel,
        apiUrl: emulator.apiUrl,
        probeBudget: { limit: 1000, intervalMs: 1000 },
        ...setup.timing,
        ...(setup.interaction ? { interactions: { publicKey: emulator.publicKey, port: 0 } } : {}),
      },
      { env: {} },
    );
    return {
      plugin,
      messages: () =>
        emulator.messages().map((m) => ({
          id: m.id,
          text: shownText(m),
          calls: m.history.map((call) => ({ op: call.route === ROUTES.send ? 'send' : 'update', at: call.receivedAt ?? call.at, refused: call.outcome !== 'accepted' }) as const),
          ...(m.replyTo === undefined ? {} : { replyTo: m.replyTo }),
        })),
      fail: (op, fault, times = 1) => void emulator.faults.add({ route: ROUTES[op], times, respond: answer(fault) }),
      remove: (id) => void emulator.deleteMessage(id),
      maxInFlight: () => Math.max(0, ...emulator.messages().map((m) => m.maxConcurrentCalls)),
      ...(setup.interaction
        ? {
            // A button press: an Ed25519-signed MESSAGE_COMPONENT interaction POSTed to the plugin's
            // interactions endpoint, which must answer within 3 s
            // (https://discord.com/developers/docs/interactions/receiving-and-responding).
            async click({ messageId, user, control }: ConformanceClick) {
              const endpoint = plugin.interaction as DiscordInteractions;
              if (endpoint.url === undefined) throw new Error('the interactions endpoint is not listening');
              emulator.configureInteractions({ url: endpoint.url });
              // The buttons appear once the card's edit lands; a press after they are gone (decided) is a no-op.
              const until = Date.now() + 3000;
              for (;;) {
                const pressed = await emulator.click({ messageId, button: labelOf(control), userId: user, userName: user });
                if (pressed.error !== 'no-such-button' || Date.now() > until) {
                  if (pressed.error === 'endpoint-not-set' || pressed.error === 'no-answer') throw new Error(`the press was not answered: ${pressed.error}`);
                  if (pressed.status !== undefined && pressed.status !== 200) throw new Error(`the endpoint answered the press with HTTP ${pressed.status}`);
                  return;
                }
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
            },
          }
        : {}),
      close: () => emulator.close(),
    };
  },
};

describeChannelConformance(driver);
