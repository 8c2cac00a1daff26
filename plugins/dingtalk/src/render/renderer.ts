import {
  codePointLength,
  cut,
  formatFooter,
  isTerminalStatus,
  toolLineText,
  type CardRenderer,
  type CardStatus,
  type CardView,
  type FooterStyle,
  type Locale,
  type ToolLine,
} from '@progresscard/core';
import { truncateMarkdown } from './guards.js';
import { escapeInline, normalizeAgentMarkdown } from './markdown.js';
import { CARD_TEXTS, STATUS_COLOR_TOKENS, STATUS_ICONS, type CardTexts } from './texts.js';

/**
 * What the DingTalk renderer produces: the card's `cardData.cardParamMap`. Every value is a string
 * (instructions-for-filling-in-api-card-data: "all cardParamMap values must be strings").
 */
export interface DingTalkCardPayload {
  readonly cardParamMap: Readonly<Record<string, string>>;
}

/**
 * AI-card `flowStatus` per card status (dingtalk-stream-sdk-python `AICardStatus`: "2" INPUTING,
 * "3" FINISHED, "5" FAILED). Cancelled is shown as finished, so it never keeps the typing animation.
 */
export const FLOW_STATUS: Readonly<Record<CardStatus, '2' | '3' | '5'>> = {
  running: '2',
  waiting: '2',
  completed: '3',
  failed: '5',
  cancelled: '3',
};

/** Options of {@link DingTalkRenderer}. */
export interface DingTalkRendererOptions {
  /** Template variable names. */
  readonly keys: { readonly title: string; readonly content: string; readonly flowStatus: string };
  /** Fixed extra variables, already strings. */
  readonly staticParams?: Readonly<Record<string, string>>;
  /** Card language; default the view's. */
  readonly locale?: Locale;
  readonly footerStyle: FooterStyle;
  readonly timeZone?: string;
  /** Most characters of the markdown variable. */
  readonly maxContentChars: number;
  /** Most tool lines shown. */
  readonly maxToolLines: number;
}

const MAX_INLINE_CHARS = 500;
const MAX_THINKING_CHARS = 300;

/** Running tools first (they are what the card is waiting on), then the latest finished ones, in start order. */
function pickTools(tools: readonly ToolLine[], max: number): { shown: ToolLine[]; hidden: number } {
  if (tools.length <= max) return { shown: [...tools], hidden: 0 };
  const running = new Set(tools.filter((t) => t.state === 'running').slice(-max));
  const rest = tools.filter((t) => !running.has(t)).slice(-(max - running.size));
  const keep = new Set([...running, ...(max > running.size ? rest : [])]);
  return { shown: tools.filter((t) => keep.has(t)), hidden: tools.length - keep.size };
}

/**
 * Renders a {@link CardView} as DingTalk card data: title, status line (colour token + emoji), tool
 * lines, thinking (while nothing is answered yet), answer, error / waiting prompt, footer.
 * Pure: equal views give equal payloads. The markdown variable never exceeds `maxContentChars`; a
 * shortened answer keeps valid markdown (open code fences closed) and says it was shortened.
 */
export class DingTalkRenderer implements CardRenderer<DingTalkCardPayload> {
  constructor(private readonly options: DingTalkRendererOptions) {}

  render(view: CardView): DingTalkCardPayload {
    const { locale, texts } = this.language(view);
    const o = this.options;
    const status = `<font colorTokenV2=${STATUS_COLOR_TOKENS[view.status]}>${STATUS_ICONS[view.status]} **${texts.status[view.status]}**</font>`;
    const head = view.round > 0 ? `${status} · ${texts.round(view.round)}` : status;
    const detail = this.detail(view, texts);
    const footer = this.footer(view, locale);
    const footerBlock = footer ? `***\n\n<font colorTokenV2=common_level3_base_color>${escapeInline(footer)}</font>` : '';
    const thinkingText = view.answer.trim() === '' && !isTerminalStatus(view.status) ? view.thinking.trim() : '';
    const thinking = thinkingText
      ? `> 💭 ${texts.thinking}：${escapeInline(cut(Array.from(thinkingText).slice(-MAX_THINKING_CHARS).join(''), MAX_THINKING_CHARS))}`
      : '';
    const answer = normalizeAgentMarkdown(view.answer.trim());

    let toolLimit = o.maxToolLines;
    let content = '';
    for (;;) {
      const tools = this.tools(view, locale, texts, toolLimit);
      const fixed = [head, tools, detail, footerBlock];
      content = assemble([head, tools, thinking, answer, detail, footerBlock]);
      if (codePointLength(content) <= o.maxContentChars) break;
      // Too long: drop the thinking, then shorten the answer, keeping at least a third of the room for it.
      const withoutAnswer = codePointLength(assemble(fixed));
      if (answer === '' || withoutAnswer <= (o.maxContentChars * 2) / 3 || toolLimit <= 3) {
        content = this.shortened(head, tools, answer, detail, footerBlock, texts);
        break;
      }
      toolLimit = Math.max(3, Math.floor(toolLimit / 2));
    }
    return {
      cardParamMap: {
        ...o.staticParams,
        [o.keys.title]: escapeInline(cut(view.title.trim() || texts.defaultTitle, 200)),
        [o.keys.content]: content,
        [o.keys.flowStatus]: FLOW_STATUS[view.status],
      },
    };
  }

  /** Plain text only: no tags, no tables, no code fences; the same variables. */
  renderFallback(view: CardView): DingTalkCardPayload {
    const { locale, texts } = this.language(view);
    const o = this.options;
    const lines: string[] = [];
    lines.push(`${STATUS_ICONS[view.status]} ${texts.status[view.status]}${view.round > 0 ? ` · ${texts.round(view.round)}` : ''}`);
    const { shown, hidden } = pickTools(view.tools, Math.min(o.maxToolLines, 5));
    if (hidden > 0) lines.push(escapeInline(texts.moreTools(hidden)));
    for (const tool of shown) lines.push(`· ${escapeInline(this.toolText(tool, view, locale).replace(/`/g, ''))}`);
    for (const line of view.answer.split('\n')) {
      const plain = toPlainLine(line);
      if (plain !== '') lines.push(escapeInline(plain));
    }
    if (view.status === 'waiting' && view.waitingFor) lines.push(`${texts.waitingFor}: ${escapeInline(cut(view.waitingFor, MAX_INLINE_CHARS))}`);
    if (view.error) lines.push(`${view.status === 'cancelled' ? texts.reason : texts.error}: ${escapeInline(cut(view.error, MAX_INLINE_CHARS))}`);
    const footer = this.footer(view, locale);
    if (footer) lines.push(escapeInline(footer));
    let text = lines.join('\n\n');
    if (codePointLength(text) > o.maxContentChars) {
      const notice = texts.shortened(o.maxContentChars, codePointLength(text));
      text = `${Array.from(text).slice(0, o.maxContentChars - codePointLength(notice) - 3).join('')}…\n\n${notice}`;
    }
    return {
      cardParamMap: {
        ...o.staticParams,
        [o.keys.title]: escapeInline(cut(view.title.trim() || texts.defaultTitle, 200)),
        [o.keys.content]: text,
        [o.keys.flowStatus]: FLOW_STATUS[view.status],
      },
    };
  }

  private language(view: CardView): { locale: Locale; texts: CardTexts } {
    const locale = this.options.locale ?? view.locale;
    return { locale, texts: CARD_TEXTS[locale] };
  }

  /** The core's line text, re-made in the card's locale when it differs from the view's. */
  private toolText(tool: ToolLine, view: CardView, locale: Locale): string {
    return locale === view.locale ? tool.text : toolLineText(tool, locale);
  }

  private tools(view: CardView, locale: Locale, texts: CardTexts, limit: number): string {
    if (view.tools.length === 0) return '';
    const { shown, hidden } = pickTools(view.tools, limit);
    const lines = shown.map((tool) => `- ${escapeInline(this.toolText(tool, view, locale))}`);
    if (hidden > 0) lines.unshift(`- ${escapeInline(texts.moreTools(hidden))}`);
    return lines.join('\n');
  }

  private detail(view: CardView, texts: CardTexts): string {
    if (view.status === 'waiting' && view.waitingFor) {
      return `**${texts.waitingFor}**：${escapeInline(cut(view.waitingFor, MAX_INLINE_CHARS))}`;
    }
    if ((view.status === 'failed' || view.status === 'cancelled') && view.error) {
      const label = view.status === 'failed' ? texts.error : texts.reason;
      return `**${label}**：${escapeInline(cut(view.error, MAX_INLINE_CHARS))}`;
    }
    return '';
  }

  private footer(view: CardView, locale: Locale): string {
    if (!isTerminalStatus(view.status) && this.options.footerStyle !== 'debug') return '';
    return formatFooter(view.footer, { style: this.options.footerStyle, locale, timeZone: this.options.timeZone });
  }

  private shortened(head: string, tools: string, answer: string, detail: string, footerBlock: string, texts: CardTexts): string {
    const max = this.options.maxContentChars;
    const total = codePointLength(answer);
    const notice = `*${texts.shortened(total, total)}*`;
    const others = codePointLength(assemble([head, tools, detail, footerBlock]));
    // separators around the answer and the notice: 2 × "\n\n"
    const room = max - others - codePointLength(notice) - 4;
    if (answer === '' || room < 50) {
      return truncateMarkdown(assemble([head, tools, detail, footerBlock]), max);
    }
    const kept = truncateMarkdown(answer, room);
    const shown = codePointLength(kept);
    return truncateMarkdown(assemble([head, tools, kept, `*${texts.shortened(shown, total)}*`, detail, footerBlock]), max);
  }
}

function assemble(parts: readonly string[]): string {
  return parts.filter((p) => p !== '').join('\n\n');
}

/** One line of agent markdown as plain text: no fences, heading / quote marks, emphasis, code ticks or table pipes. */
function toPlainLine(line: string): string {
  if (/^\s*(`{3,}|~{3,})/.test(line) || /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) return '';
  let text = line.replace(/^\s{0,3}(#{1,6}|>+)\s*/, '');
  if (/^\s*\|.*\|\s*$/.test(text)) text = text.trim().slice(1, -1).split('|').map((cell) => cell.trim()).join(' · ');
  return text.replace(/(\*\*|__|`)/g, '').trim();
}
