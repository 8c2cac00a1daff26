import {
  reasoningOpen,
  thinkingHeading,
  changedFilesLines,
  codePointLength,
  cut,
  formatFooter,
  imagePlaceholderText,
  isTerminalStatus,
  noticeText,
  oneLine,
  planHeading,
  planLines,
  toolLineText,
  toolTree,
  toolTreeRows,
  childToolText,
  MAX_SUBAGENT_CHILDREN,
  type CardRenderer,
  type CardStatus,
  type CardView,
  type FooterField,
  type FooterStyle,
  type Locale,
  type ToolLine,
  boundAnswer,
  answerCharsNotHeld,
} from '@progresscard/core/plugin';
import { cutMarkdown, offsetAfterCodePoints, splitMarkdown, truncateMarkdown } from './guards.js';
import { controlsVariable, interactionMarkdown, type ControlStyle } from './controls.js';
import { layoutVariables, type LayoutKeys } from './layout.js';
import { escapeInline, normalizeAgentMarkdown } from './markdown.js';
import { attachmentsBlock, changedFilesBlock, imagesBlock, livenessBlock, planBlock } from './sections.js';
import { CARD_TEXTS, STATUS_COLOR_TOKENS, STATUS_ICONS, type CardTexts } from './texts.js';
import type { DingTalkCardPayload, FailedCardState, StreamEnd } from './payload.js';

/**
 * AI-card `flowStatus` per card status (dingtalk-stream-sdk-python `AICardStatus`: "2" INPUTING,
 * "3" FINISHED, "5" FAILED). Cancelled is shown as finished, so it never keeps the typing animation;
 * failed follows {@link FailedCardState}.
 */
function flowStatusOf(status: CardStatus, failedState: FailedCardState): '2' | '3' | '5' {
  if (status === 'running' || status === 'waiting') return '2';
  return status === 'failed' && failedState === 'failed' ? '5' : '3';
}

/** The stream end of a state (see {@link StreamEnd}). */
function streamEndOf(status: CardStatus, failedState: FailedCardState): StreamEnd {
  if (!isTerminalStatus(status)) return 'open';
  return status === 'failed' && failedState === 'failed' ? 'error' : 'finalize';
}

/** Options of {@link DingTalkRenderer}. */
export interface DingTalkRendererOptions {
  /** Template variable names. */
  readonly keys: LayoutKeys & { readonly flowStatus: string };
  /** How open questions are drawn (default `text`: the reply to type; `buttons` needs card callbacks). */
  readonly controls?: ControlStyle;
  /** The controls variable in `buttons` style (see `controlsVariable`). */
  readonly controlsKey?: string;
  /** Send `sys_full_json_obj` and `config` (see `layoutVariables`); default true. */
  readonly layoutVariables?: boolean;
  /** State of a failed run; default `finished`. */
  readonly failedState?: FailedCardState;
  /** Follow-up messages at most for a terminal answer that does not fit; default 20. */
  readonly maxContinuationMessages?: number;
  /** Fixed extra variables, already strings. */
  readonly staticParams?: Readonly<Record<string, string>>;
  /** Card language; default the view's. */
  readonly locale?: Locale;
  readonly footerStyle: FooterStyle;
  /** Footer parts shown (default: all the style shows). */
  readonly footerFields?: readonly FooterField[];
  readonly timeZone?: string;
  /** Most code points of the markdown variable (also of each follow-up message). */
  readonly maxContentChars: number;
  /** Most tool lines shown. */
  readonly maxToolLines: number;
}

const MAX_INLINE_CHARS = 500;
/** Most code points of one tool line (a tool name can be any length), of the footer's model name and of the footer. */
const MAX_TOOL_LINE_CHARS = 300;
const MAX_MODEL_CHARS = 80;
const MAX_FOOTER_CHARS = 300;
const MAX_THINKING_CHARS = 300;

/** Running tools first (they are what the card is waiting on), then the latest finished ones, in start order. */
function pickTools(tools: readonly ToolLine[], max: number): { shown: ToolLine[]; hidden: number } {
  if (tools.length <= max) return { shown: [...tools], hidden: 0 };
  const running = new Set(tools.filter((t) => t.state === 'running').slice(-max));
  const rest = tools.filter((t) => !running.has(t)).slice(-(max - running.size));
  const keep = new Set([...running, ...(max > running.size ? rest : [])]);
  return { shown: tools.filter((t) => keep.has(t)), hidden: tools.length - keep.size };
}

/** A rendered card and, for a terminal answer that did not fit, its follow-up messages (parts 2..n). */
interface Layout {
  readonly card: DingTalkCardPayload;
  readonly continuations: readonly DingTalkCardPayload[];
}

/**
 * Renders a {@link CardView} as DingTalk card data: title, status line (colour token + emoji), the
 * liveness note, the plan checklist, tool lines, thinking (while nothing is answered yet), answer, error / waiting prompt, the changed files (final card), footer.
 * Pure: equal views give equal payloads. The markdown variable never exceeds `maxContentChars`; a
 * running card's long answer is shortened (valid markdown, saying so); a terminal card's answer that
 * does not fit continues in follow-up messages ({@link renderContinuations}), so nothing is lost.
 */
export class DingTalkRenderer implements CardRenderer<DingTalkCardPayload> {
  private last: { view: CardView; layout: Layout } | undefined;

  constructor(private readonly options: DingTalkRendererOptions) {}

  render(view: CardView): DingTalkCardPayload {
    return this.layout(view).card;
  }

  /** Follow-up messages of a terminal answer longer than the card holds: each up to `maxContentChars`. */
  renderContinuations(view: CardView): readonly DingTalkCardPayload[] {
    return this.layout(view).continuations;
  }

  private layout(view: CardView): Layout {
    if (this.last?.view !== view) this.last = { view, layout: this.draw(view) };
    return this.last.layout;
  }

  private draw(whole: CardView): Layout {
    // Only what the card and its follow-up messages can show is parsed and escaped, so a render's
    // cost does not grow with the answer (issue 30); the notices count the whole answer.
    const view = boundAnswer(whole, this.options.maxContentChars * (1 + Math.max(0, this.options.maxContinuationMessages ?? 20)));
    const { locale, texts } = this.language(view);
    const o = this.options;
    const status = `<font colorTokenV2=${STATUS_COLOR_TOKENS[view.status]}>${STATUS_ICONS[view.status]} **${texts.status[view.status]}**</font>`;
    const round = view.round > 0 ? `${status} · ${texts.round(view.round)}` : status;
    const note = livenessBlock(view, locale, o.timeZone);
    const head = assemble([round, note]);
    const plan = planBlock(view, locale);
    const files = assemble([imagesBlock(view, locale), changedFilesBlock(view, locale), attachmentsBlock(view, locale)]);
    const notice = view.notice ? `<font colorTokenV2=common_level3_base_color>${escapeInline(noticeText(view.notice, locale, o.timeZone))}</font>` : '';
    const detail = assemble([notice, this.detail(view, texts), interactionMarkdown(view, o.controls ?? 'text')]);
    const footer = this.footer(view, locale);
    const footerBlock = footer ? `***\n\n<font colorTokenV2=common_level3_base_color>${escapeInline(footer)}</font>` : '';
    // Card markdown has no fold: the reasoning shows open (header and latest text) while the agent
    // thinks with nothing answered yet, and only its header ("Thought for 12s") after.
    const thinkingText = view.thinking.trim();
    const heading = thinkingText ? escapeInline(thinkingHeading(view, locale)) : '';
    const thinking = !thinkingText
      ? ''
      : !isTerminalStatus(view.status) && reasoningOpen(view)
        ? `> ${heading}${locale === 'zh-CN' ? '：' : ': '}${escapeInline(cut(Array.from(thinkingText).slice(-MAX_THINKING_CHARS).join(''), MAX_THINKING_CHARS))}`
        : `> ${heading}`;
    const answer = normalizeAgentMarkdown(view.answer.trim());

    let toolLimit = o.maxToolLines;
    let content = '';
    let parts: readonly string[] = [];
    for (;;) {
      const tools = assemble([plan, this.tools(view, locale, texts, toolLimit)]);
      const fixed = [head, tools, detail, files, footerBlock];
      content = assemble([head, tools, thinking, answer, detail, files, footerBlock]);
      if (codePointLength(content) <= o.maxContentChars) break;
      // Too long: drop the thinking, then shorten the answer, keeping at least a third of the room for it.
      const withoutAnswer = codePointLength(assemble(fixed));
      if (answer === '' || withoutAnswer <= (o.maxContentChars * 2) / 3 || toolLimit <= 3) {
        ({ content, parts } = this.shortened(head, tools, answer, assemble([detail, files]), footerBlock, texts, isTerminalStatus(view.status), view.answerSourceChars));
        break;
      }
      toolLimit = Math.max(3, Math.floor(toolLimit / 2));
    }
    const title = escapeInline(cut(view.title.trim() || texts.defaultTitle, 200));
    const card = this.payload(view, title, content);
    const continuations = parts.map((part, index) => this.payload(view, `${title}${texts.continuationTitle(index + 2, parts.length + 1)}`, part));
    return { card, continuations };
  }

  private payload(view: CardView, title: string, content: string): DingTalkCardPayload {
    const o = this.options;
    const failedState = o.failedState ?? 'finished';
    return {
      cardParamMap: {
        ...(o.layoutVariables === false ? {} : layoutVariables(o.keys)),
        ...o.staticParams,
        [o.keys.title]: title,
        [o.keys.content]: content,
        [o.keys.flowStatus]: flowStatusOf(view.status, failedState),
        // Only cards that had controls carry the variable (empty once they are gone, which clears them).
        ...(o.controls === 'buttons' && o.controlsKey && view.controls ? { [o.controlsKey]: controlsVariable(view) } : {}),
      },
      streamEnd: streamEndOf(view.status, failedState),
    };
  }

  /** Plain text only: no tags, no tables, no code fences; the same variables. */
  renderFallback(whole: CardView): DingTalkCardPayload {
    // The text is cut to `maxContentChars`: more of the answer than that is never shown.
    const view = boundAnswer(whole, this.options.maxContentChars);
    const { locale, texts } = this.language(view);
    const o = this.options;
    const lines: string[] = [];
    lines.push(`${STATUS_ICONS[view.status]} ${texts.status[view.status]}${view.round > 0 ? ` · ${texts.round(view.round)}` : ''}`);
    if (view.plan) lines.push(escapeInline([planHeading(view.plan, locale), ...planLines(view.plan, locale)].join('\n')));
    const { shown, hidden } = pickTools(view.tools, Math.min(o.maxToolLines, 5));
    if (hidden > 0) lines.push(escapeInline(texts.moreTools(hidden)));
    for (const tool of shown) lines.push(`· ${escapeInline(this.toolText(tool, view, locale).replace(/`/g, ''))}`);
    for (const line of view.answer.split('\n')) {
      const plain = toPlainLine(line);
      if (plain !== '') lines.push(escapeInline(plain));
    }
    for (const image of view.images) lines.push(escapeInline(imagePlaceholderText(image, locale)));
    if (view.status === 'waiting' && view.waitingFor) lines.push(`${texts.waitingFor}: ${escapeInline(cut(view.waitingFor, MAX_INLINE_CHARS))}`);
    if (view.notice) lines.push(escapeInline(noticeText(view.notice, locale, o.timeZone)));
    if (view.error) lines.push(`${view.status === 'cancelled' ? texts.reason : texts.error}: ${escapeInline(cut(view.error, MAX_INLINE_CHARS))}`);
    if (isTerminalStatus(view.status) && view.changedFiles.length > 0) {
      const files = changedFilesLines(view.changedFiles, locale);
      lines.push(escapeInline(`${files.heading}: ${files.items.join(', ')}`));
    }
    const footer = this.footer(view, locale);
    if (footer) lines.push(escapeInline(footer));
    let text = lines.join('\n\n');
    if (codePointLength(text) > o.maxContentChars) {
      const notice = texts.shortened(o.maxContentChars, codePointLength(text) + answerCharsNotHeld(view));
      text = `${Array.from(text).slice(0, o.maxContentChars - codePointLength(notice) - 3).join('')}…\n\n${notice}`;
    }
    return this.payload(view, escapeInline(cut(view.title.trim() || texts.defaultTitle, 200)), text);
  }

  private language(view: CardView): { locale: Locale; texts: CardTexts } {
    const locale = this.options.locale ?? view.locale;
    return { locale, texts: CARD_TEXTS[locale] };
  }

  /** The core's line text, re-made in the card's locale when it differs from the view's. */
  private toolText(tool: ToolLine, view: CardView, locale: Locale): string {
    return oneLine(locale === view.locale ? tool.text : toolLineText(tool, locale), MAX_TOOL_LINE_CHARS);
  }

  private tools(view: CardView, locale: Locale, texts: CardTexts, limit: number): string {
    if (view.tools.length === 0) return '';
    // Subagents as a tree: a running subagent's latest calls indented under its line, a done one folded to its line.
    const tree = toolTree(view.tools, { maxEntries: limit, maxChildren: Math.min(limit, MAX_SUBAGENT_CHILDREN) });
    const lines = toolTreeRows(tree, locale).map((row) => {
      const parent = row.depth === 1 ? tree.entries.find((entry) => entry.children.some((child) => child === row.line)) : undefined;
      const text = row.line === undefined ? row.text : parent ? childToolText(row.line, parent.line, this.toolText(row.line, view, locale)) : this.toolText(row.line, view, locale);
      return `${row.depth === 0 ? '*' : '    *'} ${escapeInline(text)}`;
    });
    if (tree.olderCalls > 0) lines.unshift(`* ${escapeInline(texts.moreTools(tree.olderCalls))}`);
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
    // A model name is whatever the agent said: one line, cut.
    const model = view.footer.model === undefined ? undefined : oneLine(view.footer.model, MAX_MODEL_CHARS);
    return oneLine(
      formatFooter({ ...view.footer, model }, { style: this.options.footerStyle, fields: this.options.footerFields, locale, timeZone: this.options.timeZone }),
      MAX_FOOTER_CHARS,
    );
  }

  /**
   * The card with the answer cut to the room left; `parts` are what a terminal card continues in
   * follow-up messages (none while running: a running card only says it was shortened).
   * `sourceChars`: the length of the whole answer when the core holds only part of it (the notice
   * counts the answer the agent wrote, not the part the card holds).
   */
  private shortened(head: string, tools: string, answer: string, detail: string, footerBlock: string, texts: CardTexts, terminal: boolean, sourceChars = 0): { content: string; parts: readonly string[] } {
    const max = this.options.maxContentChars;
    const total = Math.max(codePointLength(answer), sourceChars);
    const maxParts = this.options.maxContinuationMessages ?? 20;
    const followUp = terminal && maxParts > 0;
    const longest = followUp ? texts.continuedBelow(Math.ceil(total / 100)) : texts.shortened(total, total);
    const others = codePointLength(assemble([head, tools, detail, footerBlock]));
    // separators around the answer and the notice: 2 × "\n\n"
    const room = max - others - codePointLength(`*${longest}*`) - 4;
    if (answer === '' || room < 50) {
      return { content: truncateMarkdown(assemble([head, tools, detail, footerBlock]), max), parts: followUp ? splitMarkdown(answer, max, maxParts).parts : [] };
    }
    const kept = cutMarkdown(answer, room);
    // (sliced at the UTF-16 offset of the cut: the answer is not taken apart into code points)
    const remaining = answer.slice(offsetAfterCodePoints(answer, 0, kept.consumed)).replace(/^\n+/, '');
    const rest = kept.reopen !== undefined && remaining.trim() !== '' ? `${kept.reopen}\n${remaining}` : remaining;
    if (!followUp) {
      const notice = texts.shortened(codePointLength(kept.text), total);
      return { content: truncateMarkdown(assemble([head, tools, kept.text, `*${notice}*`, detail, footerBlock]), max), parts: [] };
    }
    // Only the parts that are sent are split; the rest is only counted.
    const { parts, leftOut } = splitMarkdown(rest, max, maxParts);
    // When even `maxParts` follow-ups are not enough, the notice says how much is shown in all.
    const shown = codePointLength(kept.text) + parts.reduce((sum, part) => sum + codePointLength(part), 0);
    const notice = leftOut > 0 ? texts.shortened(shown, total) : texts.continuedBelow(parts.length);
    return { content: truncateMarkdown(assemble([head, tools, kept.text, `*${notice}*`, detail, footerBlock]), max), parts };
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
