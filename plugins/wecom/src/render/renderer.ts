import {
  changedFilesLines,
  cut,
  formatFooter,
  imagePlaceholderText,
  isTerminalStatus,
  noticeText,
  oneLine,
  planHeading,
  planLines,
  statusLabel,
  type CardRenderer,
  type CardView,
  type FooterField,
  type FooterStyle,
  type Locale,
  tablesAsAligned,
  boundAnswer,
  answerCharsNotHeld,
} from '@progresscard/core/plugin';
import { decisionLines, replyLine, templateCardOf } from './controls.js';
import { WECOM_LIMITS, type WeComLimits } from './limits.js';
import { agentMarkdown, inline, prefixWithinBytes, splitByBytes, utf8Bytes } from './markdown.js';
import type { WeComPayload } from './payload.js';
import { WECOM_TEXTS } from './texts.js';

/** Options of {@link createWeComRenderer}. */
export interface WeComRendererOptions {
  readonly locale?: Locale;
  readonly footerStyle?: FooterStyle;
  readonly footerFields?: readonly FooterField[];
  /** Latest tool calls shown; older ones are counted (default 12). */
  readonly toolFoldAfter?: number;
  readonly timeZone?: string;
  readonly limits?: WeComLimits;
}

const STATUS_EMOJI = { running: '⏳', waiting: '🙋', completed: '✅', failed: '❌', cancelled: '🚫' } as const;
const TOOLS_SHOWN = 12;
/** Bytes kept free in the stream for the note shown when the 6-minute window closes. */
const MOVED_NOTE_RESERVE = 400;

/**
 * The WeCom renderer: the card as the stream's Markdown (https://developer.work.weixin.qq.com/document/path/101031)
 * — status line, liveness note, plan, tool calls with their elapsed time, thinking, the answer, the
 * open question, decisions, changed files and the footer — within 20 480 bytes; the answer's rest
 * continues in one follow-up message (the user message's `response_url`); a `button_interaction`
 * template card carries the open question's options and Stop.
 */
export function createWeComRenderer(options: WeComRendererOptions = {}): CardRenderer<WeComPayload> {
  const limits = options.limits ?? WECOM_LIMITS;
  const localeOf = (view: CardView) => options.locale ?? view.locale;
  const footer = (view: CardView) =>
    oneLine(formatFooter({ ...view.footer, model: view.footer.model === undefined ? undefined : oneLine(view.footer.model, 80) }, { locale: localeOf(view), style: options.footerStyle ?? 'compact', fields: options.footerFields, timeZone: options.timeZone }), 300);
  const heading = (view: CardView) => `${STATUS_EMOJI[view.status]} **${statusLabel(view.status, localeOf(view))}** · ${inline(oneLine(view.title, 120))}`;

  /** Blocks before and after the answer. */
  const blocks = (view: CardView): { before: string[]; after: string[] } => {
    const locale = localeOf(view);
    const t = WECOM_TEXTS[locale];
    const before: string[] = [`${heading(view)}${view.round > 0 ? ` · ${t.round(view.round)}` : ''}`];
    if (view.notice) before.push(`*${inline(noticeText(view.notice, locale, options.timeZone))}*`);
    if (view.plan) before.push(cut([`**${inline(planHeading(view.plan, locale))}**`, ...planLines(view.plan, locale).map((line) => `- ${inline(line)}`)].join('\n'), 600));
    if (view.tools.length > 0) {
      const shown = view.tools.slice(-(options.toolFoldAfter ?? TOOLS_SHOWN));
      const older = view.tools.length - shown.length;
      before.push([`**${t.tools(view.tools.length)}**`, ...(older > 0 ? [`*${t.olderTools(older)}*`] : []), ...shown.map((tool) => `- ${inline(oneLine(tool.text, 200))}`)].join('\n'));
    }
    if (view.thinking.trim() !== '' && !isTerminalStatus(view.status) && view.answer.trim() === '') before.push(`*${t.thinking}:* ${inline(oneLine(view.thinking.slice(-300), 300))}`);
    const after: string[] = [];
    if (view.images.length > 0) after.push(view.images.map((image) => imagePlaceholderText(image, locale)).join('  '));
    if (view.status === 'waiting' && view.waitingFor) after.push(`**${t.waitingFor}:** ${inline(cut(view.waitingFor, 400))}`);
    if (view.error) after.push(`⚠️ ${inline(cut(view.error, 400))}`);
    const decided = decisionLines(view);
    if (decided.length > 0) after.push(decided.join('\n'));
    const reply = replyLine(view);
    if (reply) after.push(reply);
    if (isTerminalStatus(view.status) && view.changedFiles.length > 0) {
      const { heading: filesHeading, items } = changedFilesLines(view.changedFiles, locale);
      after.push(cut([`**${inline(filesHeading)}**`, ...items.map((item) => `- ${inline(item)}`)].join('\n'), 600));
    }
    after.push(`*${inline(footer(view))}*`);
    return { before, after };
  };

  /** The answer's share in the stream and in the follow-up message. */
  const answerShares = (view: CardView, frameBytes: number) => {
    // Only the start of the answer the stream and its parts can hold is converted (every character
    // takes at least a byte), so a render's cost does not grow with the answer (issue 30); the bytes
    // of the rest are only counted.
    const window = boundAnswer(view, (1 + limits.maxParts) * limits.streamBytes);
    // Bytes of the held answer the window leaves out, plus what the core already left out of the card
    // (counted in UTF-16 units there, so a lower bound of its bytes).
    const notConverted = (window === view ? 0 : Math.max(0, utf8Bytes(view.answer) - utf8Bytes(window.answer))) + answerCharsNotHeld(view);
    // Whether WeCom's stream markdown draws GFM tables is UNCONFIRMED: a table becomes an aligned code block, which it does draw.
    const answer = agentMarkdown(tablesAsAligned(window.answer, { locale: localeOf(view) }));
    if (answer.trim() === '') return { card: undefined, parts: [] as string[], leftOut: 0 };
    const first = Math.max(1000, limits.streamBytes - frameBytes - MOVED_NOTE_RESERVE - 200);
    const { pieces, leftOut } = splitByBytes(answer, first, limits.streamBytes - 200, 1 + limits.maxParts);
    return { card: pieces[0], parts: pieces.slice(1), leftOut: leftOut + notConverted };
  };

  const markdownOf = (view: CardView): string => {
    const t = WECOM_TEXTS[localeOf(view)];
    const { before, after } = blocks(view);
    const frame = utf8Bytes([...before, ...after].join('\n\n'));
    const { card, parts, leftOut } = answerShares(view, frame);
    const middle: string[] = [];
    if (card !== undefined) middle.push(card);
    if (parts.length > 0) middle.push(`*${t.continuesBelow}*`);
    else if (leftOut > 0) middle.push(`*${t.cutNotice(leftOut)}*`);
    // Guard: whatever happens above, the stream never carries more than its limit.
    return prefixWithinBytes([...before, ...middle, ...after].join('\n\n'), limits.streamBytes - MOVED_NOTE_RESERVE);
  };

  return {
    render(view) {
      const card = templateCardOf(view, `${statusLabel(view.status, localeOf(view))} · ${view.title}`);
      return { markdown: markdownOf(view), ...(card ? { card } : {}), terminal: isTerminalStatus(view.status), movedNote: `*${WECOM_TEXTS[localeOf(view)].moved}*` };
    },

    renderFallback(view) {
      const text = [heading(view), agentMarkdown(boundAnswer(view, limits.streamBytes).answer).trim(), view.error ?? '', `*${inline(footer(view))}*`].filter((p) => p !== '').join('\n\n');
      return { markdown: prefixWithinBytes(text, limits.streamBytes - MOVED_NOTE_RESERVE), terminal: isTerminalStatus(view.status), movedNote: `*${WECOM_TEXTS[localeOf(view)].moved}*` };
    },

    renderContinuations(view) {
      const t = WECOM_TEXTS[localeOf(view)];
      const frame = utf8Bytes(Object.values(blocks(view)).flat().join('\n\n'));
      const { parts, leftOut } = answerShares(view, frame);
      return parts.map((piece, i) => ({
        markdown: `${piece}${i === parts.length - 1 && leftOut > 0 ? `\n\n*${t.cutNotice(leftOut)}*` : ''}`,
        terminal: isTerminalStatus(view.status),
        movedNote: '',
      }));
    },
  };
}
