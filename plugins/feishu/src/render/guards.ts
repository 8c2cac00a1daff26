import type { FeishuCard, FeishuElement } from './payload.js';
import { countTables, escapeCardMarkdown, fenceMarker, limitTables, openFenceAtEnd, truncateMarkdown, type Truncated } from './markdown/index.js';

/**
 * Limits the renderer keeps every card under. The platform refuses a request body over 30 KB
 * (230025, https://open.feishu.cn/document/server-docs/im-v1/message/create); the card travels
 * JSON-escaped inside the body's `content` string, where quotes, backslashes and line breaks
 * double, so the guard measures the escaped form. It also refuses
 * more than 200 components (230099 / 11310), 4+ markdown tables in a card (230099 / 11310,
 * openclaw-lark's production finding) and malformed or duplicate `element_id`s.
 */
export interface GuardLimits {
  /**
   * UTF-8 bytes of the card JSON as escaped into the request body's `content` string (see
   * {@link escapedContentBytes}); 28 KB leaves 2 KB for the rest of the body under Feishu's 30 KB.
   */
  readonly maxContentBytes: number;
  readonly maxElements: number;
  readonly maxTables: number;
}

/** The defaults: 28 KB, 200 components, 3 tables. */
export const FEISHU_GUARD_LIMITS: GuardLimits = { maxContentBytes: 28 * 1024, maxElements: 200, maxTables: 3 };

/** `element_id` rule of Card JSON 2.0. */
export const ELEMENT_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,19}$/;

/** Measurements of one card. */
export interface CardInspection {
  /** UTF-8 bytes of the card as escaped into the request body (see {@link escapedContentBytes}). */
  readonly bytes: number;
  /** Components in `body.elements`, nested ones included. */
  readonly elements: number;
  /** GFM tables in all markdown components. */
  readonly tables: number;
  /** What breaks a limit; empty when the card is fine. */
  readonly problems: readonly string[];
}

function walk(elements: readonly FeishuElement[], visit: (e: FeishuElement) => void): void {
  for (const e of elements) {
    visit(e);
    for (const key of ['elements', 'columns'] as const) {
      const nested = e[key];
      if (Array.isArray(nested)) walk(nested as FeishuElement[], visit);
    }
  }
}

/**
 * UTF-8 bytes `card` takes in the request body: `JSON.stringify` of the card JSON string, i.e. the
 * `content` field as the transport sends it (quotes included), where every `"`, `\` and line break of
 * the card JSON is escaped once more.
 */
export function escapedContentBytes(card: FeishuCard): number {
  return Buffer.byteLength(JSON.stringify(JSON.stringify(card)), 'utf8');
}

/** Measures `card` against `limits` and lists every problem (size, components, tables, ids, 2.0 tags). */
export function inspectCard(card: FeishuCard, limits: GuardLimits = FEISHU_GUARD_LIMITS): CardInspection {
  const bytes = escapedContentBytes(card);
  let elements = 0;
  let tables = 0;
  const ids = new Set<string>();
  const problems: string[] = [];
  walk(card.body.elements, (e) => {
    elements += 1;
    if (e.tag === 'note' || e.tag === 'action') problems.push(`tag ${e.tag} is not allowed in 2.0 cards`);
    if (e.tag === 'markdown' && typeof e.content === 'string') tables += countTables(e.content);
    if (e.element_id !== undefined) {
      if (!ELEMENT_ID_PATTERN.test(e.element_id)) problems.push(`element_id ${JSON.stringify(e.element_id)} is malformed`);
      if (ids.has(e.element_id)) problems.push(`element_id ${e.element_id} is used twice`);
      ids.add(e.element_id);
    }
  });
  if (bytes > limits.maxContentBytes) problems.push(`content is ${bytes} bytes (limit ${limits.maxContentBytes})`);
  if (elements > limits.maxElements) problems.push(`${elements} components (limit ${limits.maxElements})`);
  if (tables > limits.maxTables) problems.push(`${tables} markdown tables (limit ${limits.maxTables})`);
  return { bytes, elements, tables, problems };
}

/** True when {@link inspectCard} finds no problem. */
export function cardFits(card: FeishuCard, limits: GuardLimits = FEISHU_GUARD_LIMITS): boolean {
  return inspectCard(card, limits).problems.length === 0;
}

/**
 * Agent markdown made safe for a card: card tags neutralised, tables beyond `maxTables` turned
 * into code blocks, a code fence still open at the end (text still streaming) closed.
 */
export function prepareAgentMarkdown(markdown: string, maxTables: number): { text: string; tables: number } {
  const limited = limitTables(escapeCardMarkdown(markdown), Math.max(0, maxTables));
  const open = openFenceAtEnd(limited.text);
  const text = open === undefined ? limited.text : `${limited.text.replace(/\n*$/, '')}\n${fenceMarker(open)}`;
  return { text, tables: limited.kept };
}

/**
 * The longest cut of `text` whose card fits. `build` gets the cut (undefined when the whole text is
 * used) and returns the card. Undefined when not even an empty cut fits.
 *
 * Every kept character takes at least one byte of the card, so the longest fitting cut is almost
 * always shorter than `maxContentBytes` characters: the search starts there and doubles while a cut
 * still fits (blank lines that the card drops could make a longer one fit), then halves between the
 * last cut that fitted and the first that did not. The cost depends on the card's size, not on the
 * length of `text`, so a long answer renders in time linear in its length (the cut itself) at most.
 */
export function fitText(
  text: string,
  build: (cut: Truncated | undefined) => FeishuCard,
  limits: GuardLimits = FEISHU_GUARD_LIMITS,
): { card: FeishuCard; cut?: Truncated } | undefined {
  let best: { card: FeishuCard; cut: Truncated } | undefined;
  let low = 0;
  let high = text.length - 1;
  for (let probe = Math.max(1, limits.maxContentBytes); ; probe *= 2) {
    if (probe >= text.length) {
      const whole = build(undefined);
      if (cardFits(whole, limits)) return { card: whole };
      break;
    }
    const cut = truncateMarkdown(text, probe);
    const card = build(cut);
    if (!cardFits(card, limits)) {
      high = probe - 1;
      break;
    }
    best = { card, cut };
    low = probe + 1;
  }
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const cut = truncateMarkdown(text, mid);
    const card = build(cut);
    if (cardFits(card, limits)) {
      best = { card, cut };
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}
