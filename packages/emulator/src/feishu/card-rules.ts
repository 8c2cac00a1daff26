import { FeishuErrors, type FeishuError } from './codes.js';
import { countMarkdownTables } from './markdown-tables.js';

/** Documented card limits the emulator enforces. Sizes in bytes (UTF-8). */
export interface CardLimits {
  /** Card and post content ≤ 30 KB (message/create, message/patch) → 230025. */
  readonly maxCardBytes: number;
  /** Text content ≤ 150 KB → 230025. */
  readonly maxTextBytes: number;
  /** 2.0 cards: ≤ 200 components → 230099 / 11310 "element exceeds the limit". */
  readonly maxElements: number;
  /** ≤ 4 tables per markdown component (rich-text component doc) → 230099 / 11310. */
  readonly maxTablesPerMarkdown: number;
  /**
   * Tables per card. Empirical: openclaw-lark saw 4+ tables fail with 230099 / 11310
   * "card table number over limit" and caps at 3 (FEISHU_CARD_TABLE_LIMIT).
   */
  readonly maxTablesPerCard: number;
}

/** Defaults from the reference notes. */
export const DEFAULT_CARD_LIMITS: CardLimits = {
  maxCardBytes: 30 * 1024,
  maxTextBytes: 150 * 1024,
  maxElements: 200,
  maxTablesPerMarkdown: 4,
  maxTablesPerCard: 3,
};

/** A parsed, accepted card. */
export interface CheckedCard {
  readonly card: Record<string, unknown>;
  readonly schema: '1.0' | '2.0';
  /** `config.update_multi` as the platform reads it (2.0: always true). */
  readonly shared: boolean;
  /** Components counted (2.0 body, 1.0 elements). */
  readonly elementCount: number;
  /** `<at …>` mentions found in markdown/lark_md text. */
  readonly mentions: readonly string[];
}

export type CardCheck = { readonly ok: true; readonly value: CheckedCard } | { readonly ok: false; readonly error: FeishuError };

const ELEMENT_ID = /^[A-Za-z][A-Za-z0-9_]{0,19}$/;

/**
 * Top-level properties of a Card JSON 2.0 card (https://open.feishu.cn/document/feishu-cards/card-json-v2-structure);
 * Feishu refuses a card with any other (the emulator answers 200621; the exact code is UNCONFIRMED).
 */
const CARD_V2_PROPERTIES: ReadonlySet<string> = new Set(['schema', 'config', 'card_link', 'header', 'body', 'i18n_header', 'i18n_body']);

/** `header.template` colours (https://open.feishu.cn/document/feishu-cards/card-json-v2-components/content-components/title). */
const HEADER_TEMPLATES: ReadonlySet<string> = new Set([
  'blue', 'wathet', 'turquoise', 'green', 'yellow', 'orange', 'red', 'carmine', 'violet', 'purple', 'indigo', 'grey', 'default',
]);

/** `text_size` of a markdown component (https://open.feishu.cn/document/feishu-cards/card-json-v2-components/content-components/rich-text). */
const MARKDOWN_TEXT_SIZES: ReadonlySet<string> = new Set([
  'heading-0', 'heading-1', 'heading-2', 'heading-3', 'heading-4', 'heading', 'normal', 'notation',
  'xxxx-large', 'xxx-large', 'xx-large', 'x-large', 'large', 'medium', 'small', 'x-small',
]);

/** The first unknown top-level property or invalid enum value of a 2.0 card, if any. */
function invalidV2Property(card: Record<string, unknown>): string | undefined {
  const unknown = Object.keys(card).find((key) => !CARD_V2_PROPERTIES.has(key));
  if (unknown !== undefined) return `unknown property ${unknown}`;
  const template = (card.header as Record<string, unknown> | undefined)?.template;
  if (template !== undefined && (typeof template !== 'string' || !HEADER_TEMPLATES.has(template))) return `invalid header.template ${JSON.stringify(template)}`;
  return undefined;
}
const MENTION = /<at\s+(?:id|user_id|open_id|union_id|email)\s*=\s*['"]?([^'"\s>]+)/gi;
/** Keys under which 2.0 containers nest components. */
const NESTED_COMPONENT_KEYS = ['elements', 'columns', 'actions'] as const;

function fail(error: FeishuError): CardCheck {
  return { ok: false, error };
}

/** UTF-8 byte length. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Checks the `content` of an `interactive` message as Feishu does on send and on PATCH:
 * size (230025), JSON (230099/200621), 2.0 rules (no unknown top-level property, `header.template`
 * and markdown `text_size` from their enums: 200621), (no `note`/`action`: 200861; ≤ 200 components: 11310;
 * unique, well-formed `element_id`; table limits: 11310).
 */
export function checkCardContent(content: string, limits: CardLimits = DEFAULT_CARD_LIMITS): CardCheck {
  if (utf8Bytes(content) > limits.maxCardBytes) return fail(FeishuErrors.contentTooLong());
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return fail(FeishuErrors.cardContent(200621, 'parse card json err, please check whether the card json is correct'));
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return fail(FeishuErrors.cardContent(200621, 'parse card json err, card must be a JSON object'));
  const card = parsed as Record<string, unknown>;
  if (card.type === 'card' || card.type === 'template')
    return fail(FeishuErrors.invalidParam('(emulator) card entity and template references are not emulated'));
  const schema = card.schema === '2.0' ? '2.0' : '1.0';
  if (card.schema !== undefined && card.schema !== '2.0' && card.schema !== '1.0')
    return fail(FeishuErrors.cardContent(200621, 'parse card json err, unknown schema', JSON.stringify(card.schema)));
  const config = (card.config ?? {}) as Record<string, unknown>;
  if (schema === '2.0' && config.update_multi === false)
    return fail(FeishuErrors.cardContent(300302, 'update_multi property is false; schema 2.0 cards are always shared'));
  const shared = schema === '2.0' ? true : config.update_multi === true;
  const invalid = schema === '2.0' ? invalidV2Property(card) : undefined;
  if (invalid) return fail(FeishuErrors.cardContent(200621, 'parse card json err, please check whether the card json is correct', invalid));

  const roots = schema === '2.0' ? asArray((card.body as Record<string, unknown> | undefined)?.elements) : asArray(card.elements);
  const ids = new Set<string>();
  const mentions: string[] = [];
  let elementCount = 0;
  let tables = 0;
  let error: FeishuError | undefined;

  const visit = (component: unknown, path: string): void => {
    if (error || component === null || typeof component !== 'object') return;
    const c = component as Record<string, unknown>;
    if (typeof c.tag !== 'string') {
      error = FeishuErrors.cardContent(200621, 'parse card json err, component without tag', path);
      return;
    }
    elementCount += 1;
    if (schema === '2.0' && (c.tag === 'note' || c.tag === 'action')) {
      error = FeishuErrors.cardContent(200861, 'cards of schema V2 no longer support this capability', `unsupported tag ${c.tag}`);
      return;
    }
    if (c.element_id !== undefined) {
      if (typeof c.element_id !== 'string' || !ELEMENT_ID.test(c.element_id)) {
        error = FeishuErrors.cardContent(10002, 'invalid element_id (letters, digits, _; starts with a letter; ≤ 20 chars)', JSON.stringify(c.element_id));
        return;
      }
      if (ids.has(c.element_id)) {
        error = FeishuErrors.cardContent(300301, 'Duplicate element_id', c.element_id);
        return;
      }
      ids.add(c.element_id);
    }
    for (const text of textsOf(c)) for (const m of text.matchAll(MENTION)) mentions.push(m[1]!);
    if (schema === '2.0' && c.tag === 'markdown' && c.text_size !== undefined && (typeof c.text_size !== 'string' || !MARKDOWN_TEXT_SIZES.has(c.text_size))) {
      error = FeishuErrors.cardContent(200621, 'parse card json err, invalid text_size', `${path}: ${JSON.stringify(c.text_size)}`);
      return;
    }
    if (c.tag === 'markdown' && typeof c.content === 'string') {
      const inThis = countMarkdownTables(c.content);
      tables += inThis;
      if (schema === '2.0' && inThis > limits.maxTablesPerMarkdown) {
        error = FeishuErrors.cardContent(11310, 'card table number over limit', path);
        return;
      }
    }
    for (const key of NESTED_COMPONENT_KEYS) for (const [i, child] of asArray(c[key]).entries()) visit(child, `${path} -> ${key} -> [${i}]`);
  };
  for (const [i, component] of roots.entries()) visit(component, `ROOT -> elements -> [${i}]`);
  if (error) return fail(error);
  if (schema === '2.0' && elementCount > limits.maxElements) return fail(FeishuErrors.cardContent(11310, 'element exceeds the limit'));
  if (schema === '2.0' && tables > limits.maxTablesPerCard) return fail(FeishuErrors.cardContent(11310, 'card table number over limit'));
  return { ok: true, value: { card, schema, shared, elementCount, mentions } };
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Text of a component that Feishu renders as markdown (mentions are live there). */
function textsOf(c: Record<string, unknown>): string[] {
  const out: string[] = [];
  if ((c.tag === 'markdown' || c.tag === 'lark_md') && typeof c.content === 'string') out.push(c.content);
  const text = c.text as Record<string, unknown> | undefined;
  if (text && text.tag === 'lark_md' && typeof text.content === 'string') out.push(text.content);
  return out;
}
