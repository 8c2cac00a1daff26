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

/** One tried cut: the card, its measure, and whether it fits. */
interface Probe {
  /** Characters asked of {@link truncateMarkdown} (the whole text when at least its length). */
  readonly chars: number;
  readonly card: FeishuCard;
  readonly cut?: Truncated;
  readonly bytes: number;
  /** True when only the size broke a limit (so the size says how far off the cut is). */
  readonly onlyTooBig: boolean;
  readonly fits: boolean;
}

/**
 * The longest cut of `text` whose card fits, to within 1/256 of its length. `build` gets the cut
 * (undefined when the whole text is used) and returns the card. Undefined when not even an empty
 * cut fits.
 *
 * The card's size grows almost linearly with the cut, so the search interpolates on the measured
 * sizes (regula falsi) from a first cut of `maxContentBytes` characters, extrapolating up while cuts
 * still fit (blank lines that the card drops can make a cut much longer than the byte limit fit) and
 * then checks a step of the tolerance past each guess; after three guesses, or when a limit other
 * than the size broke, it halves. A card is built and measured a handful of times instead of once per halving of the
 * interval (15 for 28 KB), and each build measures only the cut, so the cost depends on the card's
 * size, not on the length of `text`.
 */
export function fitText(
  text: string,
  build: (cut: Truncated | undefined) => FeishuCard,
  limits: GuardLimits = FEISHU_GUARD_LIMITS,
): { card: FeishuCard; cut?: Truncated } | undefined {
  const measure = (chars: number): Probe => {
    const cut = chars >= text.length ? undefined : truncateMarkdown(text, chars);
    const card = build(cut);
    const inspection = inspectCard(card, limits);
    const onlyTooBig = inspection.problems.length === 1 && inspection.bytes > limits.maxContentBytes;
    return { chars: Math.min(chars, text.length), card, ...(cut ? { cut } : {}), bytes: inspection.bytes, onlyTooBig, fits: inspection.problems.length === 0 };
  };
  const result = (probe: Probe) => (probe.cut ? { card: probe.card, cut: probe.cut } : { card: probe.card });
  let low = measure(0);
  if (!low.fits) return undefined;
  if (low.cut === undefined) return result(low);
  const base = low.bytes;
  let high: Probe | undefined;
  let next = Math.min(text.length, Math.max(1, limits.maxContentBytes));
  let lastWasGuess = false;
  /** Interpolated guesses made; past three the search halves (a curved size can make guesses creep). */
  let guesses = 0;
  for (let step = 0; step < 64; step++) {
    const probe = measure(next);
    if (probe.fits) {
      if (probe.cut === undefined) return result(probe);
      low = probe;
    } else high = probe;
    if (high === undefined) {
      // Every cut so far fits: extrapolate from the measured bytes per character, at least doubling.
      const perChar = Math.max(1e-6, (low.bytes - base) / Math.max(1, low.chars));
      const reach = low.chars + Math.floor((limits.maxContentBytes - low.bytes) / perChar);
      next = Math.min(text.length, Math.max(low.chars * 2, reach));
      continue;
    }
    const gap = high.chars - low.chars;
    const tolerance = Math.max(1, Math.floor(low.chars / 256));
    if (gap <= tolerance) break;
    const interpolated =
      high.onlyTooBig && high.bytes > low.bytes
        ? low.chars + Math.floor(((limits.maxContentBytes - low.bytes) * gap) / (high.bytes - low.bytes))
        : Number.NaN;
    if (lastWasGuess) {
      // An interpolated guess is followed by a step of the tolerance past it, which usually closes the interval.
      next = probe.fits ? low.chars + tolerance : high.chars - tolerance;
      lastWasGuess = false;
    } else if (guesses < 3 && !Number.isNaN(interpolated)) {
      next = interpolated;
      lastWasGuess = true;
      guesses += 1;
    } else next = low.chars + Math.floor(gap / 2);
    next = Math.min(high.chars - 1, Math.max(low.chars + 1, next));
  }
  return result(low);
}
