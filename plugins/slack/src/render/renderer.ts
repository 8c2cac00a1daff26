import { createHash } from 'node:crypto';
import { splitAtNativeTable, tablesAsPreformatted } from './tables.js';
import { answerCharsNotHeld, boundAnswer, codePointLength, cut, DEFAULT_TITLES, formatFooter, isTerminalStatus, oneLine, reasoningOpen, statusLabel, thinkingHeading, fitToolTree, toolTreeRows, type CardRenderer, type CardView, type FooterField, type FooterStyle, type Locale } from '@progresscard/core/plugin';
import type { SlackBlock, SlackMessage, SlackTableBlock } from './payload.js';
import { SLACK_LIMITS, type SlackLimits } from './limits.js';
import { plainMrkdwn, splitSections, toMrkdwn } from './mrkdwn.js';
import { controlBlocks, decisionBlocks, type ControlStyle } from './controls.js';
import { attachmentBlocks, changedFilesBlocks, imagesBlocks, livenessBlocks, planBlocks } from './sections.js';
import { planBlock, toolTaskCards } from './agent-blocks.js';
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
  /**
   * Slack's AI blocks (default true): the plan as a `plan` block, tool calls as `task_card` blocks,
   * the answer's first table as a `table` block. False: mrkdwn sections and aligned preformatted tables.
   */
  readonly aiBlocks?: boolean;
}

const STATUS_EMOJI = { running: ':hourglass_flowing_sand:', waiting: ':raising_hand:', completed: ':white_check_mark:', failed: ':x:', cancelled: ':no_entry_sign:' } as const;
const TOOLS_SHOWN = 12;
/** Most code points of the footer's model name and of the footer line. */
const MAX_MODEL_CHARS = 80;
const MAX_FOOTER_CHARS = 300;
/**
 * Lines of the answer the main message and its thread replies hold at most (with the notice counting
 * the rest): 54 sections of 3000 characters hold ~162 000 characters, which at ordinary line lengths
 * is under 4 000 lines; an answer of thousands of tiny tables or short code lines is cut here, so one
 * render stays within ~50 ms (issue 30; figures in `npm run bench:render`).
 */
const MAX_ANSWER_LINES = 4_000;

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

/** One piece of the answer: a section's mrkdwn text, or the native table. */
type AnswerItem = string | SlackTableBlock;

/**
 * The answer as pieces: main message first, then each thread reply's, and how many code points were
 * left out. With `nativeTable`, the answer's first table that fits is a `table` block in its place
 * (counted as one section), the others aligned preformatted blocks.
 */
function answerParts(answer: string, limits: SlackLimits, nativeTable: boolean): { main: AnswerItem[]; replies: AnswerItem[][]; leftOut: number } {
  // Only the sections that are sent are split; the rest is only counted.
  const kept = limits.mainAnswerSections + limits.maxReplies * limits.replyAnswerSections;
  const split = (markdown: string, max: number) => (markdown.trim() === '' || max <= 0 ? { sections: [], leftOut: markdown.trim() === '' ? 0 : codePointLength(markdown) } : splitSections(toMrkdwn(markdown), limits.maxSectionChars, max));
  const withTable = nativeTable ? splitAtNativeTable(answer, { maxTableRows: limits.maxTableRows, maxTableColumns: limits.maxTableColumns, maxChars: limits.maxSectionChars }) : undefined;
  let items: AnswerItem[];
  let leftOut: number;
  if (withTable) {
    const before = split(withTable.before, kept);
    const after = split(withTable.after, kept - before.sections.length - 1);
    const tableKept = before.sections.length < kept && before.leftOut === 0;
    items = [...before.sections, ...(tableKept ? [withTable.table] : []), ...(tableKept ? after.sections : [])];
    leftOut = before.leftOut + (tableKept ? after.leftOut : codePointLength(withTable.after));
  } else {
    const all = split(tablesAsPreformatted(answer), kept);
    items = [...all.sections];
    leftOut = all.leftOut;
  }
  const main = items.slice(0, limits.mainAnswerSections);
  const replies: AnswerItem[][] = [];
  for (let from = limits.mainAnswerSections; from < items.length; from += limits.replyAnswerSections) {
    replies.push(items.slice(from, from + limits.replyAnswerSections));
  }
  return { main, replies, leftOut };
}

/** An answer piece as its block: a section, or the table. */
const answerBlock = (item: AnswerItem, i: number): SlackBlock => (typeof item === 'string' ? section(item, `answer_${i + 1}`) : item);

function toolsBlock(view: CardView, t: SlackTexts, limits: SlackLimits, toolsShown: number): SlackBlock | undefined {
  if (view.tools.length === 0) return undefined;
  // Subagents as a tree: a running subagent's latest calls indented under its line, a done one folded to its line.
  // Earlier entries leave whole when the section would pass its size, so the latest calls stay.
  const text = fitToolTree(view.tools, { maxEntries: toolsShown }, (tree) => {
    const rows = toolTreeRows(tree, view.locale).map((row) => `${row.depth === 0 ? '•' : '\u2003◦'} ${toMrkdwn(oneLine(row.text, 300))}`);
    return [`*${t.tools(view.tools.length)}*`, ...(tree.olderCalls > 0 ? [`_${t.olderTools(tree.olderCalls)}_`] : []), ...rows].join('\n');
  }, limits.maxSectionChars);
  return section(cut(text, limits.maxSectionChars), 'tools');
}

/**
 * The Slack renderer: a Block Kit card of a header (status emoji and title), a context line (status,
 * round), the liveness note, the plan (a `plan` block), tool calls (`task_card` blocks when there is no
 * plan block; else a section), thinking while running, the answer in sections of at most 3000
 * characters (its first table that fits a `table` block), the
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

  /**
   * The card's blocks. With `aiBlocks` (and the renderer's `aiBlocks` option on), the plan is a `plan`
   * block and, without one, the latest tool calls are `task_card` blocks (see agent-blocks.ts);
   * otherwise both are mrkdwn sections. The answer's first table that fits is a `table` block either way.
   */
  const draw = (view: CardView, aiBlocks: boolean): SlackMessage => {
    const locale = localeOf(view);
    const t = SLACK_TEXTS[locale];
    const useAiBlocks = aiBlocks && options.aiBlocks !== false;
    const { main, replies, leftOut } = partsOf(view);
    const blocks: SlackBlock[] = [
      { type: 'header', text: { type: 'plain_text', text: oneLine(titleOf(view), limits.maxHeaderChars), emoji: true } },
      context(`${STATUS_EMOJI[view.status]} *${statusLabel(view.status, locale)}*${view.round > 0 ? ` · ${t.round(view.round)}` : ''}`, 'status'),
    ];
    blocks.push(...livenessBlocks(view, locale, options.timeZone));
    const plan = useAiBlocks ? planBlock(view, locale, limits) : undefined;
    blocks.push(...(plan ? [plan] : planBlocks(view, locale, limits.maxSectionChars)));
    // Slack refuses a plan next to task cards (agent-blocks.ts): with a plan block the tool calls stay a section.
    const cards = useAiBlocks && !plan && view.tools.length > 0 ? toolTaskCards(view, locale, limits) : undefined;
    if (cards) {
      if (cards.olderCalls > 0) blocks.push(context(`_${t.tools(view.tools.length)} · ${t.olderTools(cards.olderCalls)}_`, 'tools'));
      blocks.push(...cards.blocks);
    } else {
      const tools = toolsBlock(view, t, limits, options.toolFoldAfter ?? TOOLS_SHOWN);
      if (tools) blocks.push(tools);
    }
    // Block Kit has no fold: the reasoning shows open (its header and latest text) while the agent
    // thinks with nothing answered yet, and folds to its header ("Thought for 12s") after.
    if (view.thinking.trim() !== '') {
      const heading = `_${thinkingHeading(view, locale)}_`;
      const open = !isTerminalStatus(view.status) && reasoningOpen(view);
      blocks.push(context(cut(open ? `${heading} ${toMrkdwn(oneLine(view.thinking.slice(-600), 600))}` : heading, limits.maxSectionChars), 'thinking'));
    }
    blocks.push(...main.map(answerBlock));
    if (replies.length > 0) blocks.push(context(`_${t.continuesInThread(replies.length)}_`, 'notice'));
    else if (leftOut > 0) blocks.push(context(`_${t.cutNotice(leftOut)}_`, 'notice'));
    blocks.push(...imagesBlocks(view, locale, limits.maxSectionChars));
    if (view.status === 'waiting' && view.waitingFor) blocks.push(section(cut(`*${t.waitingFor}:* ${toMrkdwn(view.waitingFor)}`, limits.maxSectionChars), 'waiting'));
    if (view.error) blocks.push(section(cut(`:warning: ${toMrkdwn(view.error)}`, limits.maxSectionChars), 'error'));
    blocks.push(...decisionBlocks(view, limits.maxSectionChars), ...controlBlocks(view, options.controls ?? 'text'));
    blocks.push(...changedFilesBlocks(view, locale, limits.maxSectionChars));
    blocks.push(...attachmentBlocks(view, locale, limits.maxSectionChars));
    blocks.push(context(toMrkdwn(footer(view)), 'footer'));
    return { text: cut(plainMrkdwn(headline(view)), limits.maxTextChars), blocks: freshBlockIds(blocks) };
  };

  // What the main message and its thread replies can show: the answer is cut to it before any
  // markdown parsing, so a render's cost does not grow with the answer (issue 30).
  const answerBound = (limits.mainAnswerSections + limits.maxReplies * limits.replyAnswerSections) * limits.maxSectionChars;
  // Lines too: the table and mrkdwn passes cost per line, and thousands of tiny tables are short lines.
  // The last answer's pieces: render (up to two draws) and renderContinuations of one view split it once.
  let last: { answer: string; hidden: number; parts: ReturnType<typeof answerParts> } | undefined;
  const partsOf = (view: CardView): ReturnType<typeof answerParts> => {
    const bounded = boundAnswer(view, answerBound, { maxLines: MAX_ANSWER_LINES });
    const hidden = answerCharsNotHeld(bounded);
    if (last?.answer !== bounded.answer || last.hidden !== hidden) {
      const parts = answerParts(bounded.answer, limits, options.aiBlocks !== false);
      last = { answer: bounded.answer, hidden, parts: { ...parts, leftOut: parts.leftOut + hidden } };
    }
    return last.parts;
  };

  return {
    render(view) {
      // The tool calls as task cards make the most blocks: past Slack's 50, they go back to one section.
      const native = draw(view, true);
      return (native.blocks?.length ?? 0) <= limits.maxBlocks ? native : draw(view, false);
    },

    renderFallback(view) {
      // Only the start of the answer fits in the 3900 characters: the rest is not converted.
      const parts = [headline(view), ...view.tools.slice(-TOOLS_SHOWN).map((tool) => `- ${oneLine(tool.text, 300)}`), boundAnswer(view, 3900).answer, view.error ?? '', footer(view)];
      // Plain text: Slack shows `text` as is when there are no blocks; keep it well under the 40 000 limit.
      return { text: cut(plainMrkdwn(parts.filter((p) => p.trim() !== '').join('\n\n')), 3900) };
    },

    renderContinuations(view) {
      const t = SLACK_TEXTS[localeOf(view)];
      const { replies, leftOut } = partsOf(view);
      return replies.map((items, i) => {
        const last = i === replies.length - 1;
        const blocks: SlackBlock[] = [context(`_${oneLine(titleOf(view), 100)} ${t.part(i + 2)}_`, 'part_label'), ...items.map(answerBlock)];
        if (last && leftOut > 0) blocks.push(context(`_${t.cutNotice(leftOut)}_`, 'notice'));
        return { text: plainMrkdwn(`${oneLine(titleOf(view), 100)} ${t.part(i + 2)}`), blocks: freshBlockIds(blocks) };
      });
    },
  };
}
