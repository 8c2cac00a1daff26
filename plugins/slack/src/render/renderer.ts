import { createHash } from 'node:crypto';
import { tablesAsPreformatted } from './tables.js';
import { cut, DEFAULT_TITLES, formatFooter, isTerminalStatus, oneLine, reasoningOpen, statusLabel, thinkingHeading, type CardRenderer, type CardView, type FooterField, type FooterStyle, type Locale } from '@progresscard/core/plugin';
import type { SlackBlock, SlackMessage } from './payload.js';
import { SLACK_LIMITS, type SlackLimits } from './limits.js';
import { plainMrkdwn, splitSections, toMrkdwn } from './mrkdwn.js';
import { controlBlocks, decisionBlocks, type ControlStyle } from './controls.js';
import { changedFilesBlocks, imagesBlocks, livenessBlocks, planBlocks } from './sections.js';
import { SLACK_TEXTS, type SlackTexts } from './texts.js';

/** Options of {@link createSlackRenderer}. */
export interface SlackRendererOptions {
  /** Forces the card language; default: the view's. */
  readonly locale?: Locale;
  readonly footerStyle?: FooterStyle;
  /** Footer parts shown (default: all the style shows). */
  readonly footerFields?: readonly FooterField[];
  /** Latest tool calls shown; older ones are counted (default 12). */
  readonly toolFoldAfter?: number;
  readonly timeZone?: string;
  readonly limits?: SlackLimits;
  /** How open questions are drawn (default `text`: the reply to type; `buttons` needs interactivity). */
  readonly controls?: ControlStyle;
}

const STATUS_EMOJI = { running: ':hourglass_flowing_sand:', waiting: ':raising_hand:', completed: ':white_check_mark:', failed: ':x:', cancelled: ':no_entry_sign:' } as const;
const TOOLS_SHOWN = 12;
/** Most code points of the footer's model name and of the footer line. */
const MAX_MODEL_CHARS = 80;
const MAX_FOOTER_CHARS = 300;

const section = (text: string, blockId?: string): SlackBlock => ({ type: 'section', ...(blockId ? { block_id: blockId } : {}), text: { type: 'mrkdwn', text } });
const context = (text: string, blockId?: string): SlackBlock => ({ type: 'context', ...(blockId ? { block_id: blockId } : {}), elements: [{ type: 'mrkdwn', text }] });

/**
 * Gives each block a `block_id` that changes with its content: Slack asks that `block_id`s be
 * "unique for each message and each iteration of a message. If a message is updated, use a new
 * block_id" (https://docs.slack.dev/reference/block-kit/blocks). The id keeps its name as a prefix
 * (`answer_1.` + 8 hex digits of the content's SHA-256), so an unchanged block keeps its id and the
 * render stays deterministic. The controls' ids (`pc_…`) carry the card and interaction a click
 * names, and are left as they are.
 */
function freshBlockIds(blocks: readonly SlackBlock[]): SlackBlock[] {
  return blocks.map((block) => {
    if (!('block_id' in block) || block.block_id === undefined || block.block_id.startsWith('pc_')) return block;
    const { block_id: name, ...content } = block;
    const digest = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 8);
    return { ...block, block_id: `${name}.${digest}` } as SlackBlock;
  });
}

/** The answer as section texts: main message first, then each thread reply's, and how many code points were left out. */
function answerParts(answer: string, limits: SlackLimits): { main: string[]; replies: string[][]; leftOut: number } {
  // Only the sections that are sent are split; the rest is only counted.
  const kept = limits.mainAnswerSections + limits.maxReplies * limits.replyAnswerSections;
  const { sections, leftOut } = answer.trim() === '' ? { sections: [], leftOut: 0 } : splitSections(toMrkdwn(tablesAsPreformatted(answer)), limits.maxSectionChars, kept);
  const main = sections.slice(0, limits.mainAnswerSections);
  const replies: string[][] = [];
  for (let from = limits.mainAnswerSections; from < sections.length; from += limits.replyAnswerSections) {
    replies.push(sections.slice(from, from + limits.replyAnswerSections));
  }
  return { main, replies, leftOut };
}

function toolsBlock(view: CardView, t: SlackTexts, limits: SlackLimits, toolsShown: number): SlackBlock | undefined {
  if (view.tools.length === 0) return undefined;
  const shown = view.tools.slice(-toolsShown);
  const older = view.tools.length - shown.length;
  const lines = [`*${t.tools(view.tools.length)}*`, ...(older > 0 ? [`_${t.olderTools(older)}_`] : []), ...shown.map((tool) => `• ${toMrkdwn(oneLine(tool.text, 300))}`)];
  return section(cut(lines.join('\n'), limits.maxSectionChars), 'tools');
}

/**
 * The Slack renderer: a Block Kit card of a header (status emoji and title), a context line (status,
 * round), the liveness note, the plan checklist, tool calls, thinking while running, the answer in sections of at most 3000 characters, the
 * changed files (final card) and a context footer. An answer longer than the main message holds continues in thread replies
 * ({@link CardRenderer.renderContinuations}). The fallback is the same content as plain `text`.
 */
export function createSlackRenderer(options: SlackRendererOptions = {}): CardRenderer<SlackMessage> {
  const limits = options.limits ?? SLACK_LIMITS;
  const localeOf = (view: CardView) => options.locale ?? view.locale;
  // A model name is whatever the agent said: one line, cut.
  const footer = (view: CardView) => {
    const model = view.footer.model === undefined ? undefined : oneLine(view.footer.model, MAX_MODEL_CHARS);
    return oneLine(
      formatFooter({ ...view.footer, model }, { locale: localeOf(view), style: options.footerStyle ?? 'compact', fields: options.footerFields, timeZone: options.timeZone }),
      MAX_FOOTER_CHARS,
    );
  };
  // A run with no title (none given, none in the trace) gets the default every channel shows: a
  // header block with empty text is refused by Slack (invalid_blocks).
  const titleOf = (view: CardView) => (view.title.trim() ? view.title : DEFAULT_TITLES[localeOf(view)]);
  const headline = (view: CardView) => `${statusLabel(view.status, localeOf(view))} · ${oneLine(titleOf(view), 120)}`;

  return {
    render(view) {
      const locale = localeOf(view);
      const t = SLACK_TEXTS[locale];
      const { main, replies, leftOut } = answerParts(view.answer, limits);
      const blocks: SlackBlock[] = [
        { type: 'header', text: { type: 'plain_text', text: oneLine(titleOf(view), limits.maxHeaderChars), emoji: true } },
        context(`${STATUS_EMOJI[view.status]} *${statusLabel(view.status, locale)}*${view.round > 0 ? ` · ${t.round(view.round)}` : ''}`, 'status'),
      ];
      blocks.push(...livenessBlocks(view, locale, options.timeZone), ...planBlocks(view, locale, limits.maxSectionChars));
      const tools = toolsBlock(view, t, limits, options.toolFoldAfter ?? TOOLS_SHOWN);
      if (tools) blocks.push(tools);
      // Block Kit has no fold: the reasoning shows open (its header and latest text) while the agent
      // thinks with nothing answered yet, and folds to its header ("Thought for 12s") after.
      if (view.thinking.trim() !== '') {
        const heading = `_${thinkingHeading(view, locale)}_`;
        const open = !isTerminalStatus(view.status) && reasoningOpen(view);
        blocks.push(context(cut(open ? `${heading} ${toMrkdwn(oneLine(view.thinking.slice(-600), 600))}` : heading, limits.maxSectionChars), 'thinking'));
      }
      for (const [i, text] of main.entries()) blocks.push(section(text, `answer_${i + 1}`));
      if (replies.length > 0) blocks.push(context(`_${t.continuesInThread(replies.length)}_`, 'notice'));
      else if (leftOut > 0) blocks.push(context(`_${t.cutNotice(leftOut)}_`, 'notice'));
      blocks.push(...imagesBlocks(view, locale, limits.maxSectionChars));
      if (view.status === 'waiting' && view.waitingFor) blocks.push(section(cut(`*${t.waitingFor}:* ${toMrkdwn(view.waitingFor)}`, limits.maxSectionChars), 'waiting'));
      if (view.error) blocks.push(section(cut(`:warning: ${toMrkdwn(view.error)}`, limits.maxSectionChars), 'error'));
      blocks.push(...decisionBlocks(view, limits.maxSectionChars), ...controlBlocks(view, options.controls ?? 'text'));
      blocks.push(...changedFilesBlocks(view, locale, limits.maxSectionChars));
      blocks.push(context(toMrkdwn(footer(view)), 'footer'));
      return { text: cut(plainMrkdwn(headline(view)), limits.maxTextChars), blocks: freshBlockIds(blocks) };
    },

    renderFallback(view) {
      const parts = [headline(view), ...view.tools.slice(-TOOLS_SHOWN).map((tool) => `- ${oneLine(tool.text, 300)}`), view.answer, view.error ?? '', footer(view)];
      // Plain text: Slack shows `text` as is when there are no blocks; keep it well under the 40 000 limit.
      return { text: cut(plainMrkdwn(parts.filter((p) => p.trim() !== '').join('\n\n')), 3900) };
    },

    renderContinuations(view) {
      const t = SLACK_TEXTS[localeOf(view)];
      const { replies, leftOut } = answerParts(view.answer, limits);
      return replies.map((sections, i) => {
        const last = i === replies.length - 1;
        const blocks: SlackBlock[] = [context(`_${oneLine(titleOf(view), 100)} ${t.part(i + 2)}_`, 'part_label'), ...sections.map((text, j) => section(text, `answer_${j + 1}`))];
        if (last && leftOut > 0) blocks.push(context(`_${t.cutNotice(leftOut)}_`, 'notice'));
        return { text: plainMrkdwn(`${oneLine(titleOf(view), 100)} ${t.part(i + 2)}`), blocks: freshBlockIds(blocks) };
      });
    },
  };
}
