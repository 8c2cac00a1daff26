/** Shapes of the Feishu Card JSON 2.0 this plugin sends (https://open.feishu.cn/document/feishu-cards/card-json-v2-structure). */

/** One component of `body.elements` (markdown, hr, div, collapsible_panel…). */
export interface FeishuElement {
  readonly tag: string;
  /** Unique in the card; letters, digits, `_`; starts with a letter; ≤ 20 chars. */
  readonly element_id?: string;
  readonly [key: string]: unknown;
}

/** Header colours (`header.template`) used by the renderer. */
export type FeishuTemplate = 'blue' | 'orange' | 'green' | 'red' | 'grey';

/** A Card JSON 2.0 card: the payload of the Feishu channel (a main card or one continuation part). */
export interface FeishuCard {
  readonly schema: '2.0';
  readonly config: {
    /** Always true: a shared card that can be patched. */
    readonly update_multi: true;
    /** Chat-list preview. */
    readonly summary: { readonly content: string };
    readonly width_mode?: 'default' | 'compact' | 'fill';
  };
  readonly header?: {
    readonly title: { readonly tag: 'plain_text'; readonly content: string };
    readonly subtitle?: { readonly tag: 'plain_text'; readonly content: string };
    readonly template: FeishuTemplate;
  };
  readonly body: { readonly elements: readonly FeishuElement[] };
}

/**
 * The field a rendered `img` component keeps its fallback text in (`[image: chart.png]`); the
 * transport removes it, putting in the uploaded `image_key`, or the text instead of the image.
 */
export const IMAGE_FALLBACK_FIELD = 'progresscard_fallback';
