import type { DingTalkCardInstance, DingTalkCardState } from './card-store.js';

/**
 * What the card template does with the data, beyond what the API answers. Every call below is
 * answered 200 on the real platform; only the card a user sees differs.
 */
export interface DingTalkTemplateModel {
  /** The template's streaming markdown variable; default `msgContent` (the official AI Markdown template). */
  readonly contentKey?: string;
  /**
   * The streaming switch (流式组件) of the Markdown component bound to `contentKey`; default on, as the
   * AI-card tutorial sets it up (https://open.dingtalk.com/document/development/typewriter-effect-streaming-ai-card).
   * With it on, the component shows what was streamed (`PUT /v1.0/card/streaming`); content written
   * only as card data appears and vanishes or never shows (chzealot/dingtalk-dify-connector#3), so
   * the emulator shows nothing for it.
   */
  readonly streamingSwitch?: boolean;
  /**
   * Whether the template's failed state is enabled; default off: "默认会启用处理中、输入中以及完成状态"
   * (https://open.dingtalk.com/document/development/ai-card-template). A card in the failed state of a
   * template without it shows the platform's fallback text instead of the content.
   */
  readonly failedStateEnabled?: boolean;
  /**
   * Longest variable (code points) the client renders; a longer one shows a blank card with no API
   * error (soimy/openclaw-channel-dingtalk#615: replies above about 3 000 characters). Default 3000.
   */
  readonly blankAboveChars?: number;
}

/** The text shown for a failed card whose template has no failed state enabled (the platform's own wording is not published). */
export const FAILED_STATE_FALLBACK_TEXT = '(failed state not enabled: platform fallback text)';

/** What a user sees of a card under a {@link DingTalkTemplateModel}. */
export interface DingTalkCardDisplay {
  readonly state: DingTalkCardState;
  /** The markdown shown by the content component; empty when nothing shows. */
  readonly content: string;
  /** Why the content is not what was sent, if it is not. */
  readonly problem?: 'not-streamed' | 'failed-state-disabled' | 'blank-too-long';
}

/** Applies `model` to `card`: the content a user sees and why it may differ from the data. */
export function displayOf(card: DingTalkCardInstance, model: DingTalkTemplateModel = {}): DingTalkCardDisplay {
  const key = model.contentKey ?? 'msgContent';
  const state = card.state;
  if (state === 'failed' && model.failedStateEnabled !== true) return { state, content: FAILED_STATE_FALLBACK_TEXT, problem: 'failed-state-disabled' };
  const streaming = model.streamingSwitch !== false;
  const content = streaming ? card.streamed[key] : card.cardData[key];
  if (content === undefined) return { state, content: '', problem: streaming && card.cardData[key] !== undefined ? 'not-streamed' : undefined };
  const blankAbove = model.blankAboveChars ?? 3000;
  const tooLong = Object.values(card.cardData).some((value) => Array.from(value).length > blankAbove);
  if (tooLong) return { state, content: '', problem: 'blank-too-long' };
  return { state, content };
}
