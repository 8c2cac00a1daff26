import {
  attachmentText,
  changedFilesLines,
  cut,
  formatFooter,
  imagePlaceholderText,
  isTerminalStatus,
  noProgressNote,
  oneLine,
  planHeading,
  planLines,
  statusLabel,
  fitToolTree,
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
import { CustomIdRegistry } from '../interaction/custom-id.js';
import { componentsOf, decisionLines, replyLine, type ControlStyle } from './controls.js';
import { DISCORD_LIMITS, type DiscordLimits } from './limits.js';
import { agentMarkdown, escapeMarkdown, splitMarkdown } from './markdown.js';
import type { DiscordMessage } from './payload.js';
import { DISCORD_TEXTS } from './texts.js';

/** Options of {@link createDiscordRenderer}. */
export interface DiscordRendererOptions {
  readonly locale?: Locale;
  readonly footerStyle?: FooterStyle;
  readonly footerFields?: readonly FooterField[];
  readonly toolFoldAfter?: number;
  readonly timeZone?: string;
  readonly limits?: DiscordLimits;
  /** `buttons` needs the interactions endpoint (default `text`). */
  readonly controls?: ControlStyle;
  /** Shared with the interactions endpoint, which decodes the buttons' `custom_id`. */
  readonly customIds?: CustomIdRegistry;
}

const STATUS_EMOJI = { running: '⏳', waiting: '🙋', completed: '✅', failed: '❌', cancelled: '🚫' } as const;
/** Embed colours: blurple, yellow, green, red, grey. */
const STATUS_COLOR = { running: 0x5865f2, waiting: 0xfee75c, completed: 0x57f287, failed: 0xed4245, cancelled: 0x99aab5 } as const;
const TOOLS_SHOWN = 12;
/** Characters of the tool section and of the plan, so the answer keeps its share of the 4096. */
const MAX_TOOLS_CHARS = 1200;
const MAX_PLAN_CHARS = 500;

/**
 * The Discord renderer: one rich embed per card (https://discord.com/developers/docs/resources/message#embed-object)
 * whose title is the status and the run's title and whose description holds the liveness note,
 * plan, tool calls with their live elapsed time, thinking, the answer, open questions and changed
 * files; the footer line is the embed's footer, the colour follows the status; buttons for the open
 * question and Stop. An answer longer than the embed continues in follow-up messages (replies).
 */
export function createDiscordRenderer(options: DiscordRendererOptions = {}): CardRenderer<DiscordMessage> {
  const limits = options.limits ?? DISCORD_LIMITS;
  const customIds = options.customIds ?? new CustomIdRegistry();
  const style = options.controls ?? 'text';
  const localeOf = (view: CardView) => options.locale ?? view.locale;
  const footer = (view: CardView) =>
    oneLine(formatFooter({ ...view.footer, model: view.footer.model === undefined ? undefined : oneLine(view.footer.model, 80) }, { locale: localeOf(view), style: options.footerStyle ?? 'compact', fields: options.footerFields, timeZone: options.timeZone }), 300);
  const answerShares = (whole: CardView) => {
    if (whole.answer.trim() === '') return { card: undefined, parts: [] as string[], leftOut: 0 };
    // Only what the embed and its follow-ups can show is split and parsed (issue 30); the notice counts the whole answer.
    const view = boundAnswer(whole, limits.cardAnswerChars + limits.maxParts * limits.partAnswerChars);
    // Discord markdown has no tables (https://support.discord.com/hc/en-us/articles/210298617): a GFM table becomes an aligned code block.
    const answer = tablesAsAligned(view.answer, { locale: localeOf(view) });
    const first = splitMarkdown(answer, limits.cardAnswerChars, 1);
    const consumed = answer.trim().length - first.leftOut;
    const rest = splitMarkdown(answer.trim().slice(consumed), limits.partAnswerChars, limits.maxParts);
    return { card: first.pieces[0], parts: rest.pieces, leftOut: rest.leftOut + answerCharsNotHeld(view) };
  };

  const description = (view: CardView): string => {
    const locale = localeOf(view);
    const t = DISCORD_TEXTS[locale];
    const blocks: string[] = [];
    if (view.round > 0) blocks.push(`-# ${t.round(view.round)}`);
    if (view.noProgressSince !== undefined) blocks.push(`*${escapeMarkdown(noProgressNote(view.noProgressSince, locale, options.timeZone))}*`);
    if (view.plan) blocks.push(cut([`**${escapeMarkdown(planHeading(view.plan, locale))}**`, ...planLines(view.plan, locale).map(escapeMarkdown)].join('\n'), MAX_PLAN_CHARS));
    if (view.tools.length > 0) {
      // Subagents as a tree: a running subagent's latest calls indented under its line, a done one folded to its line.
      // Earlier entries leave whole when the section would pass its size, so the latest calls stay.
      const section = fitToolTree(view.tools, { maxEntries: options.toolFoldAfter ?? TOOLS_SHOWN }, (tree) => {
        const rows = toolTreeRows(tree, view.locale).map((row) => `${row.depth === 0 ? '•' : '\u2003◦'} ${oneLine(row.text, 200)}`);
        return [`**${t.tools(view.tools.length)}**`, ...(tree.olderCalls > 0 ? [`*${t.olderTools(tree.olderCalls)}*`] : []), ...rows].join('\n');
      }, MAX_TOOLS_CHARS);
      blocks.push(cut(section, MAX_TOOLS_CHARS));
    }
    if (view.thinking.trim() !== '' && !isTerminalStatus(view.status) && view.answer.trim() === '') blocks.push(`*${t.thinking}:* ${escapeMarkdown(oneLine(view.thinking.slice(-300), 300))}`);
    const { card, parts, leftOut } = answerShares(view);
    if (card !== undefined) blocks.push(agentMarkdown(card));
    if (parts.length > 0) blocks.push(`-# ${t.continuesBelow(parts.length)}`);
    else if (leftOut > 0) blocks.push(`-# ${t.cutNotice(leftOut)}`);
    if (view.images.length > 0) blocks.push(view.images.map((image) => imagePlaceholderText(image, locale)).join('  '));
    if (view.status === 'waiting' && view.waitingFor) blocks.push(`**${t.waitingFor}:** ${escapeMarkdown(cut(view.waitingFor, 400))}`);
    if (view.error) blocks.push(`⚠️ ${escapeMarkdown(cut(view.error, 400))}`);
    const decided = decisionLines(view);
    if (decided.length > 0) blocks.push(decided.join('\n'));
    const reply = replyLine(view, style);
    if (reply) blocks.push(reply);
    if (isTerminalStatus(view.status) && view.changedFiles.length > 0) {
      const { heading, items } = changedFilesLines(view.changedFiles, locale);
      blocks.push(cut([`**${escapeMarkdown(heading)}**`, ...items.map((item) => `• ${escapeMarkdown(item)}`)].join('\n'), 500));
    }
    if ((view.attachments ?? []).length > 0) blocks.push(cut(view.attachments!.map((file) => `• ${attachmentLine(file, locale)}`).join('\n'), 1000));
    return blocks.join('\n\n') || '…';
  };

  const title = (view: CardView) => cut(`${STATUS_EMOJI[view.status]} ${statusLabel(view.status, localeOf(view))} · ${oneLine(view.title, 200)}`, limits.maxTitleChars);

  return {
    render(view) {
      const components = componentsOf(view, style, customIds);
      return {
        embeds: [{ title: title(view), description: description(view), color: STATUS_COLOR[view.status], footer: { text: footer(view) } }],
        components,
      };
    },

    renderFallback(view) {
      const parts = [`${statusLabel(view.status, localeOf(view))} · ${oneLine(view.title, 120)}`, boundAnswer(view, 1900).answer, view.error ?? '', footer(view)];
      return { content: cut(parts.filter((p) => p.trim() !== '').join('\n\n'), 1900), embeds: [], components: [] };
    },

    renderContinuations(view) {
      const t = DISCORD_TEXTS[localeOf(view)];
      const { parts, leftOut } = answerShares(view);
      return parts.map((piece, i) => {
        const notice = i === parts.length - 1 && leftOut > 0 ? `\n\n-# ${t.cutNotice(leftOut)}` : '';
        return { embeds: [{ title: cut(`${oneLine(view.title, 200)} ${t.part(i + 2)}`, limits.maxTitleChars), description: `${agentMarkdown(piece)}${notice}`, color: STATUS_COLOR[view.status] }] };
      });
    },
  };
}

/** A file the run attached: a masked link to the uploaded file (`[📎 report.md](url)`), else its text. */
function attachmentLine(file: NonNullable<CardView['attachments']>[number], locale: Locale): string {
  const text = escapeMarkdown(attachmentText(file, locale));
  return file.url && /^https:\/\/[^\s()<>]+$/.test(file.url) ? `[${text.replace(/[[\]]/g, '')}](${file.url})` : text;
}
