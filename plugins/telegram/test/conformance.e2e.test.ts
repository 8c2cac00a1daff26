import { describeChannelConformance, type ConformanceDriver, type ConformanceClick, type ConformanceFault } from '@progresscard/core/testing/conformance';
import { DEFAULT_TELEGRAM_BOT as BOT, startTelegramEmulator, type FaultResponse } from '@progresscard/emulator';
import { telegram, type TelegramWebhook } from '../src/index.js';

const WIDE = [{ limit: 1000, intervalMs: 1000 }];

/** Telegram's answer to each fault (https://core.telegram.org/bots/api#making-requests). */
function answer(fault: ConformanceFault): FaultResponse {
  switch (fault.kind) {
    case 'rate-limited': {
      const seconds = Math.max(1, Math.ceil(fault.retryAfterMs / 1000));
      return { status: 429, body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${seconds}`, parameters: { retry_after: seconds } } };
    }
    case 'auth':
      return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    case 'transient':
      return { status: 500, body: { ok: false, error_code: 500, description: 'Internal Server Error' } };
    case 'not-modified':
      return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message' } };
  }
}

const SECRET = 'tg-conformance-secret_1';
/** The label of each control as the plugin draws it (render/texts.ts, locale en). */
const labelOf = (control: ConformanceClick['control']) => (control.kind === 'choice' ? control.label : control.kind === 'stop' ? '⏹ Stop' : control.kind === 'approve' ? 'Approve' : 'Deny');

const driver: ConformanceDriver = {
  name: 'telegram forum topic (emulator on loopback)',
  async start(setup) {
    // The suite runs its own fast timing: the emulator's flood windows are widened to match.
    const emulator = await startTelegramEmulator({ limits: { perChatWindows: WIDE, perGroupWindows: WIDE, perBotWindows: WIDE, draftWindows: WIDE } });
    const plugin = telegram(
      {
        botToken: BOT.botToken,
        chatId: BOT.groupChat,
        threadId: BOT.topic,
        apiRoot: emulator.apiRoot,
        chatBudget: WIDE,
        groupBudget: WIDE,
        ...setup.timing,
        ...(setup.interaction ? { webhook: { secretToken: SECRET, port: 0 } } : {}),
      },
      { env: {} },
    );
    const routes = { send: 'sendMessage', update: 'editMessageText' } as const;
    return {
      plugin,
      messages: () =>
        emulator.messages().map((m) => ({
          id: String(m.messageId),
          text: m.text,
          calls: m.history.map((call) => ({ op: call.route === routes.send ? 'send' : 'update', at: call.receivedAt ?? call.at, refused: call.outcome !== 'accepted' }) as const),
          ...(m.replyTo === undefined ? {} : { replyTo: String(m.replyTo) }),
        })),
      fail: (op, fault, times = 1) => void emulator.faults.add({ route: routes[op], times, respond: answer(fault) }),
      remove: (id) => emulator.deleteMessage(BOT.groupChat, Number(id)),
      maxInFlight: () => Math.max(0, ...emulator.messages().map((m) => m.maxConcurrentCalls)),
      ...(setup.interaction
        ? {
            // An inline keyboard press: a callback_query update with the secret_token to the plugin's
            // webhook, answered with answerCallbackQuery (https://core.telegram.org/bots/api#callbackquery).
            async click({ messageId, user, control }: ConformanceClick) {
              const webhook = plugin.interaction as TelegramWebhook;
              if (webhook.url === undefined) throw new Error('the webhook is not listening');
              emulator.setWebhook({ url: webhook.url, secretToken: SECRET });
              // The keyboard appears once the card's edit lands; a press after it is gone (decided) is a no-op.
              const until = Date.now() + 3000;
              for (;;) {
                const pressed = await emulator.click({ chatId: BOT.groupChat, messageId: Number(messageId), button: labelOf(control), userId: user, awaitAnswerMs: 15_000 });
                if (pressed.error !== 'no-such-button' || Date.now() > until) {
                  if (pressed.error !== undefined && pressed.error !== 'no-such-button') throw new Error(`the press was not delivered: ${pressed.error}`);
                  if (pressed.error === undefined && pressed.answer === undefined) throw new Error('the press was not answered with answerCallbackQuery');
                  return;
                }
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
            },
          }
        : {}),
      close: () => emulator.close(),
      // Telegram refuses an edit that changes nothing (400 "message is not modified"): the suite checks it is no failure.
      notModifiedIsRefused: true,
    };
  },
};

describeChannelConformance(driver);
