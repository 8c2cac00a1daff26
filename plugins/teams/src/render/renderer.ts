import {
  attachmentText,
  changedFilesLines,
  cut,
  formatFooter,
  imagePlaceholderText,
  isTerminalStatus,
  neutraliseLinks,
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
  boundAnswer,
  answerCharsNotHeld,
} from '@progresscard/core/plugin';
import { answerShareLength, splitAnswer } from './answer-parts.js';
import { answerElements } from './answer-table.js';
import { cardActions, decisionBlocks, replyLine, type ControlStyle } from './controls.js';
import { TEAMS_LIMITS, type TeamsLimits } from './limits.js';
import type { AdaptiveCard, AdaptiveElement, TeamsMessage } from './payload.js';
import { closingStreamText, liveStreamText } from './stream-text.js';
import { TEAMS_TEXTS } from './texts.js';

/** Options of {@link createTeamsRenderer}. */
export interface TeamsRendererOptions {
  readonly locale?: Locale;
  readonly footerStyle?: FooterStyle;
  readonly footerFields?: readonly FooterField[];
  /** Latest tool calls shown; older ones are counted (default 12). */
  readonly toolFoldAfter?: number;
  readonly timeZone?: string;
  readonly limits?: TeamsLimits;
  /** `buttons` needs the messaging endpoint (default `text`). */
  readonly controls?: ControlStyle;
}

/** The Teams renderer: the core's contract, plus what a 1:1 stream shows around its text. */
export interface TeamsRenderer extends CardRenderer<TeamsMessage> {
  /** The card under a stream's final text: status, tool calls, decisions, files, footer (no answer: the stream holds it). */
  streamCard(view: CardView, reason: 'final' | 'roll-over'): AdaptiveCard;
  /** The informative update of a stream without text yet (the blue progress line): status and the latest tool call, ≤ 1000 characters. */
  informative(view: CardView): string;
  /**
   * The answer text a stream's closing message shows: the card's share of `view.answer` (the rest goes
   * in continuation replies, `renderContinuations`) without its first `from` UTF-16 units, which earlier
   * streams of the card showed. Empty when those showed the whole share already.
   */
  streamText(view: CardView, from: number): string;
  /**
   * What a stream chunk shows of the answer text streamed so far (`text`, in `view`'s locale): the part no
   * later text can turn into a table, its tables as aligned blocks ({@link liveStreamText}); each chunk's
   * text starts with the one before, and {@link streamText} with the last one.
   */
  liveStreamText(text: string, view: Pick<CardView, 'locale'>): string;
  /**
   * Most answer characters (code points) a stream chunk carries: three quarters of the card's share, since
   * the share may end at a paragraph break in its last fifth and the closing message must start with
   * what was streamed; no chunk nears the message size limit.
   */
  readonly streamTextChars: number;
}

/**
 * Agent text made safe for a card: links other than http/https/mailto made plain (`neutraliseLinks`), and
 * `<at>` (Teams' mention markup, https://learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/cards-format#mention-support-within-adaptive-cards)
 * broken by a zero-width space after its `<`, so agent text never mentions anyone.
 */
function safeAgentText(markdown: string): string {
  return neutraliseLinks(markdown).replace(/<(\/?at\b)/gi, '<\u200b$1');
}

const STATUS_EMOJI = { running: '⏳', waiting: '🙋', completed: '✅', failed: '❌', cancelled: '🚫' } as const;
const TOOLS_SHOWN = 12;
const text = (value: string, extra: Partial<Omit<AdaptiveElement & { type: 'TextBlock' }, 'type' | 'text'>> = {}): AdaptiveElement => ({ type: 'TextBlock', text: value, wrap: true, ...extra });
const card = (body: AdaptiveElement[], actions: AdaptiveCard['actions'] = []): AdaptiveCard => ({
  type: 'AdaptiveCard',
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
  version: '1.5',
  body,
  ...(actions.length > 0 ? { actions } : {}),
  msteams: { width: 'Full' },
});

/**
 * Lines of the answer the card and its reply messages hold at most (the notice counts the rest): at
 * ordinary line lengths the 166 000 characters they hold cut first; thousands of tiny tables are cut
 * here, so one render stays within ~50 ms (issue 30; figures in `npm run bench:render`).
 */
const MAX_ANSWER_LINES = 4_000;

/**
 * The Teams renderer: one Adaptive Card (schema 1.5) per card message, with the status line, liveness
 * note, plan, tool calls (with their live elapsed time), thinking, the answer (Teams' TextBlock Markdown
 * subset, links other than http/https/mailto made plain), the open question, decisions, changed files and
 * the footer, and `Action.Execute` buttons for the open question and Stop. Answers longer than a card
 * continue in reply messages (`renderContinuations`). The fallback is plain Markdown text.
 */
export function createTeamsRenderer(options: TeamsRendererOptions = {}): TeamsRenderer {
  const limits = options.limits ?? TEAMS_LIMITS;
  const style = options.controls ?? 'text';
  const localeOf = (view: CardView) => options.locale ?? view.locale;
  const footer = (view: CardView) =>
    oneLine(formatFooter({ ...view.footer, model: view.footer.model === undefined ? undefined : oneLine(view.footer.model, 80) }, { locale: localeOf(view), style: options.footerStyle ?? 'compact', fields: options.footerFields, timeZone: options.timeZone }), 300);
  // Only the answer the card and its parts can hold is split and converted (its lines bounded too: the
  // table pass costs per line), so a render's cost does not grow with the answer (issue 30).
  const shares = (view: CardView) => {
    if (view.answer.trim() === '') return { card: '', parts: [], leftOut: 0 };
    const held = boundAnswer(view, limits.cardAnswerChars + limits.maxParts * limits.partAnswerChars, { maxLines: MAX_ANSWER_LINES });
    const split = splitAnswer(held.answer, limits.cardAnswerChars, limits.partAnswerChars, limits.maxParts);
    return { ...split, leftOut: split.leftOut + answerCharsNotHeld(held) };
  };
  const statusLine = (view: CardView) => {
    const t = TEAMS_TEXTS[localeOf(view)];
    return `${STATUS_EMOJI[view.status]} **${statusLabel(view.status, localeOf(view))}** · ${oneLine(view.title, 120)}${view.round > 0 ? ` · ${t.round(view.round)}` : ''}`;
  };

  /** Tool calls as a tree: a running subagent's latest calls indented under its line. */
  const toolBlocks = (view: CardView): AdaptiveElement[] => {
    if (view.tools.length === 0) return [];
    const t = TEAMS_TEXTS[localeOf(view)];
    const tree = toolTree(view.tools, { maxEntries: options.toolFoldAfter ?? TOOLS_SHOWN });
    const rows = toolTreeRows(tree, view.locale).map((row) => `${row.depth === 0 ? '•' : '\u2003◦'} ${oneLine(row.text, 200)}`);
    return [
      text(`**${t.tools(view.tools.length)}**`, { separator: true }),
      ...(tree.olderCalls > 0 ? [text(`_${t.olderTools(tree.olderCalls)}_`, { isSubtle: true, spacing: 'None' })] : []),
      text(rows.join('\n\n'), { spacing: 'Small' }),
    ];
  };

  /** Status, notices, plan and tool calls: the top of every card. */
  const topBlocks = (view: CardView): AdaptiveElement[] => {
    const locale = localeOf(view);
    const blocks: AdaptiveElement[] = [text(statusLine(view), { size: 'Medium' })];
    if (view.noProgressSince !== undefined) blocks.push(text(`_${noProgressNote(view.noProgressSince, locale, options.timeZone)}_`, { isSubtle: true }));
    if (view.plan) blocks.push(text(`**${planHeading(view.plan, locale)}**`, { separator: true }), text(planLines(view.plan, locale).join('\n\n'), { spacing: 'Small' }));
    blocks.push(...toolBlocks(view));
    return blocks;
  };

  /** Question, error, decisions, files, attachments and footer: the bottom of every card. */
  const bottomBlocks = (view: CardView): AdaptiveElement[] => {
    const locale = localeOf(view);
    const t = TEAMS_TEXTS[locale];
    const blocks: AdaptiveElement[] = [];
    if (view.status === 'waiting' && view.waitingFor) blocks.push(text(`**${t.waitingFor}:** ${cut(view.waitingFor, 600)}`, { separator: true }));
    if (view.error) blocks.push(text(`⚠️ ${cut(view.error, 600)}`, { color: 'Attention' }));
    blocks.push(...decisionBlocks(view));
    const reply = replyLine(view, style);
    if (reply) blocks.push(text(reply));
    if (isTerminalStatus(view.status) && view.changedFiles.length > 0) {
      const { heading, items } = changedFilesLines(view.changedFiles, locale);
      blocks.push(text(`**${heading}**`, { separator: true }), text(items.map((item) => `• ${item}`).join('\n\n'), { spacing: 'Small' }));
    }
    if ((view.attachments ?? []).length > 0) blocks.push(text(view.attachments!.map((file) => `• ${attachmentText(file, locale)}`).join('\n\n')));
    blocks.push(text(footer(view), { size: 'Small', isSubtle: true, separator: true }));
    return blocks;
  };

  return {
    render(view) {
      const locale = localeOf(view);
      const t = TEAMS_TEXTS[locale];
      const body = topBlocks(view);
      if (view.thinking.trim() !== '' && !isTerminalStatus(view.status) && view.answer.trim() === '') body.push(text(`_${t.thinking}:_ ${oneLine(view.thinking.slice(-400), 400)}`, { isSubtle: true, separator: true }));
      const { card: answer, parts, leftOut } = shares(view);
      if (answer !== '') body.push(...answerElements(answer, safeAgentText, (value, subtle) => text(value, subtle ? { isSubtle: true } : {}), { locale }).map((element, i) => (i === 0 && element.type === 'TextBlock' ? { ...element, separator: true } : element)));
      if (parts.length > 0) body.push(text(`_${t.continuesBelow(parts.length)}_`, { isSubtle: true }));
      else if (leftOut > 0) body.push(text(`_${t.cutNotice(leftOut)}_`, { isSubtle: true }));
      if (view.images.length > 0) body.push(text(view.images.map((image) => imagePlaceholderText(image, locale)).join('  ')));
      body.push(...bottomBlocks(view));
      const { inputs, actions } = cardActions(view, style);
      return { card: card([...body, ...inputs], actions), summary: oneLine(`${statusLabel(view.status, locale)} · ${view.title}`, 120) };
    },

    renderFallback(view) {
      // Plain Markdown without a card: nothing the card schema could refuse remains; well under the limit.
      const locale = localeOf(view);
      const parts = [statusLine(view), ...view.tools.slice(-TOOLS_SHOWN).map((tool) => `- ${oneLine(tool.text, 200)}`), safeAgentText(tablesAsAligned(cut(view.answer, limits.cardAnswerChars), { locale })), view.error ?? '', footer(view)];
      const body = parts.filter((p) => p.trim() !== '').join('\n\n');
      return { text: body, summary: oneLine(`${statusLabel(view.status, locale)} · ${view.title}`, 120) };
    },

    renderContinuations(view) {
      const t = TEAMS_TEXTS[localeOf(view)];
      const { parts, leftOut } = shares(view);
      return parts.map((piece, i) => {
        const notice = i === parts.length - 1 && leftOut > 0 ? `\n\n_${t.cutNotice(leftOut)}_` : '';
        // A reply is Markdown text: a table becomes an aligned code block (whether Teams draws GFM tables in a message is UNCONFIRMED).
        return { text: `_${oneLine(view.title, 100)} ${t.part(i + 2)}_\n\n${safeAgentText(tablesAsAligned(piece, { locale: localeOf(view) }))}${notice}`, summary: oneLine(`${view.title} ${t.part(i + 2)}`, 120) };
      });
    },

    streamCard(view, reason) {
      if (reason === 'roll-over') return card([text(`_${TEAMS_TEXTS[localeOf(view)].continuesInNext}_`, { isSubtle: true, size: 'Small' })]);
      const { parts } = shares(view);
      const below = parts.length > 0 ? [text(`_${TEAMS_TEXTS[localeOf(view)].continuesBelow(parts.length)}_`, { isSubtle: true })] : [];
      return card([...topBlocks(view), ...below, ...bottomBlocks(view)]);
    },

    streamText(view, from) {
      const { card, parts, leftOut } = shares(view);
      const aligned = (share: string) => closingStreamText(share, localeOf(view));
      if (parts.length === 0 && leftOut === 0) return aligned(view.answer.slice(from));
      if (from === 0) return aligned(card);
      const leading = view.answer.length - view.answer.trimStart().length;
      return aligned(view.answer.slice(from, Math.max(from, leading + answerShareLength(view.answer.trim(), limits.cardAnswerChars))).trimStart());
    },

    liveStreamText: (streamed, view) => liveStreamText(streamed, options.locale ?? view.locale),

    streamTextChars: Math.floor(limits.cardAnswerChars * 0.75),

    informative(view) {
      const running = [...view.tools].reverse().find((tool) => tool.state === 'running') ?? view.tools.at(-1);
      const line = `${statusLabel(view.status, localeOf(view))} · ${oneLine(view.title, 200)}${running ? ` · ${oneLine(running.text, 300)}` : ''}`;
      return oneLine(line, Math.min(limits.maxInformativeChars, 600));
    },
  };
}
