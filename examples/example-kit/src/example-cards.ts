// What the SDK examples share (ai-sdk, claude-agent-sdk, codex-sdk, openai-agents), so that each
// example's main.ts shows only its SDK and the adapter call.
// Where the example's card goes: the Feishu emulator on loopback by default, the real Feishu
// (Lark) when FEISHU_APP_ID, FEISHU_APP_SECRET and FEISHU_CHAT_ID are set (optional: FEISHU_DOMAIN,
// FEISHU_CARD_MODE, FEISHU_CALLBACKS). The channel is the CLI's Feishu descriptor, the same one
// `progresscard demo` and `watch` use. On the emulator the card's buttons work: a preview page
// shows the card and a click there goes through the emulator's card callback (HTTP, on loopback) to
// the plugin. On the real Feishu buttons need FEISHU_CALLBACKS=long-connection or http:<port>.
import { emulatorPreviewSource, feishuChannel, startPreviewServer, type PreviewServer } from '@progresscard/cli';
import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import type { FeishuEmulator } from '@progresscard/emulator';

/** The example's progress cards on one Feishu channel (emulated or real), with the preview page on the emulator. */
export interface ExampleCards {
  readonly cards: ProgressCards;
  /** Opens the run's card in the chat (English labels), titled `title`. */
  open(title: string): ProgressCard;
  /** Prints where the final card went (and, on the emulator, what it shows), then stops everything. */
  finish(card: ProgressCard): Promise<void>;
  /**
   * Prints, on a line of its own, that the run now waits for a click on the card's Approve / Deny
   * buttons (where: the preview page's URL on the emulator, the chat on the real Feishu) and that the
   * timeout denies after `timeoutMs` milliseconds, then counts down every 15 s until `card`'s
   * question is answered: without it the terminal looks hung.
   */
  announceApprovalWait(card: ProgressCard, timeoutMs: number): void;
}

/**
 * Starts the Feishu emulator and the preview page (or, with FEISHU_APP_ID, FEISHU_APP_SECRET and
 * FEISHU_CHAT_ID set, connects to the real Feishu), and opens the card callback listener, so that
 * buttons on the card reach the run.
 * @throws CliUsageError naming the variable and value when a FEISHU_* variable is malformed; the
 * emulator's or preview page's listen error when a loopback port cannot be opened.
 */
/** How often the approval wait prints the time left (ms). */
const COUNTDOWN_EVERY_MS = 15_000;

export async function exampleCards(): Promise<ExampleCards> {
  const env = process.env;
  const real = feishuChannel.real.requiredEnv.every((name) => Boolean(env[name]));
  const settings = { locale: 'en' } as const;
  let emulator: FeishuEmulator | undefined;
  let preview: PreviewServer | undefined;
  if (real) {
    console.log('posting to Feishu');
  } else {
    emulator = await feishuChannel.emulated.start(0);
    preview = await startPreviewServer({ sources: [emulatorPreviewSource(feishuChannel, emulator)], runInfo: () => ({ title: 'example', phase: 'emulator' }), port: 0 });
    console.log(`posting to the Feishu emulator at ${emulator.baseUrl}; open ${preview.url} to see the card and click its buttons`);
  }
  const channel = emulator ? feishuChannel.emulated.plugin(emulator, settings) : feishuChannel.real.plugin(env, settings);
  const cards = createProgressCards({ channels: [channel] });
  const where = preview ? `the preview page ${preview.url}` : 'the Feishu chat';
  return {
    cards,
    open: (title) => cards.open('feishu', undefined, { title, locale: 'en' }),
    announceApprovalWait(card, timeoutMs) {
      console.log(`\nwaiting for a click on Approve or Deny in ${where}; with no click the run is denied after ${Math.round(timeoutMs / 1000)} s`);
      const deadline = Date.now() + timeoutMs;
      const countdown = setInterval(() => {
        const left = Math.round((deadline - Date.now()) / 1000);
        if (!card.view().controls?.pending || left <= 0) return clearInterval(countdown);
        console.log(`  still waiting for a click: ${left} s left`);
      }, COUNTDOWN_EVERY_MS);
      countdown.unref();
    },
    async finish(card) {
      const final = await card.finalDelivery;
      const view = card.view();
      console.log(`final card: ${view.status}${final.ok ? '' : ` (not delivered: ${final.error})`}`);
      for (const tool of view.tools) console.log(`  ${tool.text}`);
      for (const decision of view.decisions ?? []) console.log(`  decided: ${decision.answer}${decision.by ? ` by ${decision.by}` : ''}`);
      console.log(view.answer ? `answer: ${view.answer}` : view.error ? `error: ${view.error}` : '');
      await cards.shutdown();
      await preview?.close();
      await emulator?.close();
    },
  };
}
