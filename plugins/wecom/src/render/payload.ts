/**
 * A WeCom AI bot template card of type `button_interaction`
 * (https://developer.work.weixin.qq.com/document/path/101031, 模板卡片).
 */
export interface WeComTemplateCard {
  readonly card_type: 'button_interaction';
  readonly source?: { readonly desc: string };
  readonly main_title: { readonly title: string; readonly desc?: string };
  readonly sub_title_text?: string;
  /** 1–6 buttons; `style` 1–4; `key` unique, ≤ 1024 bytes (the click's `event_key`). */
  readonly button_list: readonly { readonly text: string; readonly style: 1 | 2 | 3 | 4; readonly key: string }[];
  /** Unique per bot, `[0-9A-Za-z_\-@]`, ≤ 128 bytes; a click names it and an update must keep it. */
  readonly task_id: string;
}

/**
 * One rendered card for WeCom: the stream's Markdown (the whole content so far, ≤ 20 480 bytes)
 * and, while the card shows controls, the template card with its buttons.
 */
export interface WeComPayload {
  /** Markdown shown as the stream's content (or posted to `response_url`). */
  readonly markdown: string;
  /** The buttons, when the card shows an open question or Stop. */
  readonly card?: WeComTemplateCard;
  /** True when the view is terminal (completed, failed, cancelled): the stream may finish with it. */
  readonly terminal: boolean;
  /** Shown after `markdown` when the stream window closes before the run ends (the rest follows as a new message). */
  readonly movedNote: string;
}
