// Where the example's card goes: the Feishu emulator on loopback by default, the real Feishu
// (Lark) when FEISHU_APP_ID, FEISHU_APP_SECRET and FEISHU_CHAT_ID are set (FEISHU_DOMAIN optional).
import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { DEFAULT_FEISHU_APP, startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';

export interface ExampleCards {
  readonly cards: ProgressCards;
  open(title: string): ProgressCard;
  /** Prints where the final card went (and, on the emulator, what it shows), then stops everything. */
  finish(card: ProgressCard): Promise<void>;
}

export async function exampleCards(): Promise<ExampleCards> {
  const env = process.env;
  const real = Boolean(env.FEISHU_APP_ID && env.FEISHU_APP_SECRET && env.FEISHU_CHAT_ID);
  let emulator: FeishuEmulator | undefined;
  const config = real
    ? { appId: env.FEISHU_APP_ID!, appSecret: env.FEISHU_APP_SECRET!, receiveId: env.FEISHU_CHAT_ID!, ...(env.FEISHU_DOMAIN ? { domain: env.FEISHU_DOMAIN } : {}) }
    : await startFeishuEmulator().then((started) => {
        emulator = started;
        return { appId: DEFAULT_FEISHU_APP.appId, appSecret: DEFAULT_FEISHU_APP.appSecret, domain: started.baseUrl, receiveId: 'oc_example' };
      });
  console.log(real ? 'posting to Feishu' : `posting to the Feishu emulator at ${emulator!.baseUrl}`);
  const cards = createProgressCards({ channels: [feishu(config)] });
  return {
    cards,
    open: (title) => cards.open('feishu', undefined, { title, locale: 'en' }),
    async finish(card) {
      const final = await card.finalDelivery;
      const view = card.view();
      console.log(`final card: ${view.status}${final.ok ? '' : ` (not delivered: ${final.error})`}`);
      for (const tool of view.tools) console.log(`  ${tool.text}`);
      console.log(view.answer ? `answer: ${view.answer}` : view.error ? `error: ${view.error}` : '');
      await cards.shutdown();
      await emulator?.close();
    },
  };
}
