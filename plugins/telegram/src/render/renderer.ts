import {
  attachmentText,
  changedFilesLines,
  cut,
  FOOTER_FIELDS,
  formatFooter,
  imagePlaceholderText,
  isTerminalStatus,
  noProgressNote,
  oneLine,
  planHeading,
  planLines,
  statusLabel,
  toolTree,
  toolTreeRows,
  type CardRenderer,
  type CardView,
  type FooterField,
  type FooterStyle,
  type Locale,
  tablesAsAligned,
  answerCharsNotHeld,
  boundAnswer,
} from '@progresscard/core/plugin';
import { CallbackDataRegistry } from '../interaction/callback-data.js';
import { decisionLines, keyboardOf, replyLine, type ControlStyle } from './controls.js';
import { escapeHtml, markdownToTelegramHtml, splitMarkdown } from './html.js';
import { TELEGRAM_LIMITS, type TelegramLimits } from './limits.js';
import type { TelegramMessage } from './payload.js';
import { TELEGRAM_TEXTS } from './texts.js';

/** Options of {@link createTelegramRenderer}. */
export interface TelegramRendererOptions {
  readonly locale?: Locale;
  readonly footerStyle?: FooterStyle;
  readonly footerFields?: readonly FooterField[];
  /** Latest tool calls shown; older ones are counted (default 12). */
  readonly toolFoldAfter?: number;
  readonly timeZone?: string;
  readonly limits?: TelegramLimits;
  /** `buttons` needs the webhook (default `text`). */
  readonly controls?: ControlStyle;
  /**
   * True: the whole answer goes into follow-up messages that stream as drafts in a private chat
   * (the card message keeps status, plan, tools and footer). False (groups): the answer starts in
   * the card message and continues in follow-up messages.
   */
  readonly answerAsDraft?: boolean;
  /** Shared with the webhook, which decodes the buttons' `callback_data`. */
  readonly callbackData?: CallbackDataRegistry;
}

const STATUS_EMOJI = { running: '⏳', waiting: '🙋', completed: '✅', failed: '❌', cancelled: '🚫' } as const;
const TOOLS_SHOWN = 12;

/**
 * The Telegram renderer: one HTML message per card (https://core.telegram.org/bots/api#html-style)
 * with the status line, liveness note, plan, tool calls (with their live elapsed time), thinking,
 * the answer, open questions, changed files and the footer, and an inline keyboard for the open
 * question and Stop. Answers longer than a message continue in follow-up messages
 * (`renderContinuations`); with `answerAsDraft` every answer part is a follow-up that streams.
 */
export function createTelegramRenderer(options: TelegramRendererOptions = {}): CardRenderer<TelegramMessage> {
  const limits = options.limits ?? TELEGRAM_LIMITS;
  const callbackData = options.callbackData ?? new CallbackDataRegistry();
  const style = options.controls ?? 'text';
  const localeOf = (view: CardView) => options.locale ?? view.locale;
  // With the answer in drafts, a running card leaves the run's duration out of its footer: the
  // core sends a card's follow-up messages only once the card shows its latest render, and a
  // duration that changes with every answer delta would hold the draft back until the end.
  const footerFields = (view: CardView): readonly FooterField[] | undefined =>
    options.answerAsDraft && !isTerminalStatus(view.status) ? (options.footerFields ?? FOOTER_FIELDS).filter((field) => field !== 'duration') : options.footerFields;
  const footer = (view: CardView) =>
    oneLine(formatFooter({ ...view.footer, model: view.footer.model === undefined ? undefined : oneLine(view.footer.model, 80) }, { locale: localeOf(view), style: options.footerStyle ?? 'compact', fields: footerFields(view), timeZone: options.timeZone }), 300);

  /** The answer split into the card's share and the follow-up messages' shares. */
  const answerShares = (whole: CardView): { card: string | undefined; parts: string[]; leftOut: number } => {
    if (whole.answer.trim() === '') return { card: undefined, parts: [], leftOut: 0 };
    // Only what the card and its follow-ups can show is split and parsed (issue 30); the notice counts the whole answer.
    const view = boundAnswer(whole, limits.cardAnswerChars + limits.maxParts * limits.partAnswerChars);
    const hidden = answerCharsNotHeld(view);
    // Telegram HTML has no tables (https://core.telegram.org/bots/api#html-style): a GFM table becomes a fenced, aligned block, drawn as <pre>.
    const answer = tablesAsAligned(view.answer, { locale: localeOf(view) });
    if (options.answerAsDraft) {
      const { pieces, leftOut } = splitMarkdown(answer, limits.partAnswerChars, limits.maxParts);
      return { card: undefined, parts: pieces, leftOut: leftOut + hidden };
    }
    const first = splitMarkdown(answer, limits.cardAnswerChars, 1);
    const card = first.pieces[0];
    const consumed = answer.trim().length - first.leftOut;
    const rest = splitMarkdown(answer.trim().slice(consumed), limits.partAnswerChars, limits.maxParts);
    return { card, parts: rest.pieces, leftOut: rest.leftOut + hidden };
  };

  const cardText = (view: CardView): string => {
    const locale = localeOf(view);
    const t = TELEGRAM_TEXTS[locale];
    const lines: string[] = [`${STATUS_EMOJI[view.status]} <b>${escapeHtml(statusLabel(view.status, locale))}</b> · ${escapeHtml(oneLine(view.title, 120))}${view.round > 0 ? ` · ${t.round(view.round)}` : ''}`];
    if (view.noProgressSince !== undefined) lines.push(`<i>${escapeHtml(noProgressNote(view.noProgressSince, locale, options.timeZone))}</i>`);
    if (view.plan) lines.push('', `<b>${escapeHtml(planHeading(view.plan, locale))}</b>`, ...planLines(view.plan, locale).map(escapeHtml));
    if (view.tools.length > 0) {
      // Subagents as a tree: a running subagent's latest calls indented under its line, a done one folded to its line.
      const tree = toolTree(view.tools, { maxEntries: options.toolFoldAfter ?? TOOLS_SHOWN });
      lines.push('', `<b>${escapeHtml(t.tools(view.tools.length))}</b>`);
      if (tree.olderCalls > 0) lines.push(`<i>${escapeHtml(t.olderTools(tree.olderCalls))}</i>`);
      lines.push(...toolTreeRows(tree, view.locale).map((row) => `${row.depth === 0 ? '•' : '\u2003◦'} ${escapeHtml(oneLine(row.text, 200))}`));
    }
    if (view.thinking.trim() !== '' && !isTerminalStatus(view.status) && view.answer.trim() === '') lines.push('', `<i>${t.thinking}:</i> ${escapeHtml(oneLine(view.thinking.slice(-400), 400))}`);
    const { card, parts, leftOut } = answerShares(view);
    if (card !== undefined) lines.push('', markdownToTelegramHtml(card));
    if (options.answerAsDraft && parts.length > 0) lines.push('', `<i>${escapeHtml(t.answerBelow)}</i>`);
    else if (parts.length > 0) lines.push('', `<i>${escapeHtml(t.continuesBelow(parts.length))}</i>`);
    else if (leftOut > 0) lines.push('', `<i>${escapeHtml(t.cutNotice(leftOut))}</i>`);
    if (view.images.length > 0) lines.push(escapeHtml(view.images.map((image) => imagePlaceholderText(image, locale)).join('  ')));
    if (view.status === 'waiting' && view.waitingFor) lines.push('', `<b>${escapeHtml(t.waitingFor)}:</b> ${escapeHtml(cut(view.waitingFor, 600))}`);
    if (view.error) lines.push('', `⚠️ ${escapeHtml(cut(view.error, 600))}`);
    const decided = decisionLines(view);
    if (decided.length > 0) lines.push('', ...decided);
    const reply = replyLine(view, style);
    if (reply) lines.push(reply);
    if (isTerminalStatus(view.status) && view.changedFiles.length > 0) {
      const { heading, items } = changedFilesLines(view.changedFiles, locale);
      lines.push('', `<b>${escapeHtml(heading)}</b>`, ...items.map((item) => `• ${escapeHtml(item)}`));
    }
    if ((view.attachments ?? []).length > 0) lines.push('', ...view.attachments!.map((file) => `• ${escapeHtml(attachmentText(file, locale))}`));
    lines.push('', `<i>${escapeHtml(footer(view))}</i>`);
    return lines.join('\n');
  };

  return {
    render(view) {
      const keyboard = keyboardOf(view, style, callbackData);
      return { text: cardText(view), ...(keyboard.length > 0 ? { keyboard } : {}) };
    },

    renderFallback(view) {
      // Plain text: no parse mode problems can remain; kept well under 4096.
      const locale = localeOf(view);
      const parts = [`${statusLabel(view.status, locale)} · ${oneLine(view.title, 120)}`, ...view.tools.slice(-TOOLS_SHOWN).map((tool) => `- ${oneLine(tool.text, 200)}`), boundAnswer(view, 3500).answer, view.error ?? '', footer(view)];
      return { text: escapeHtml(cut(parts.filter((p) => p.trim() !== '').join('\n\n'), 3500)) };
    },

    renderContinuations(view) {
      const t = TELEGRAM_TEXTS[localeOf(view)];
      const { parts, leftOut } = answerShares(view);
      const terminal = isTerminalStatus(view.status);
      return parts.map((piece, i) => {
        const last = i === parts.length - 1;
        const label = options.answerAsDraft ? '' : `<i>${escapeHtml(oneLine(view.title, 100))} ${t.part(i + 2)}</i>\n`;
        const notice = last && leftOut > 0 ? `\n<i>${escapeHtml(t.cutNotice(leftOut))}</i>` : '';
        const text = `${label}${markdownToTelegramHtml(piece)}${notice}`;
        // Only the last part still grows: earlier ones are whole and persist at once.
        return options.answerAsDraft ? { text, stream: { persist: terminal || !last } } : { text };
      });
    },
  };
}
