import { describeChannelConformance, type ConformanceDriver, type ConformanceFault } from '@progresscard/core/testing/conformance';
import { DEFAULT_TELEGRAM_BOT as BOT, startTelegramEmulator, type FaultResponse } from '@progresscard/emulator';
import { telegram } from '../src/index.js';

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

// No `click`: the suite's second approval on one card can press the first question's button before the
// card's edit removed it (Telegram has no in-place answer like Slack's response_url); the card controls
// are covered by interactive.e2e.test.ts instead.
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
      close: () => emulator.close(),
      // Telegram refuses an edit that changes nothing (400 "message is not modified"): the suite checks it is no failure.
      notModifiedIsRefused: true,
    };
  },
};

describeChannelConformance(driver);
