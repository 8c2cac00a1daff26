import { childToolText, formatFooter, hiddenChildrenText, isTerminalStatus, oneLine, toolTree, type CardView, type ToolTreeEntry, type FooterField, type FooterStyle, type ToolLine } from '@progresscard/core/plugin';
import type { FeishuElement } from './payload.js';
import { escapeCardMarkdown } from './markdown/index.js';
import type { CardTexts } from './texts.js';

/** Tool calls shown unfolded when a run has more than this many (the default of the `toolFoldAfter` switch). */
const VISIBLE_TOOLS = 3;
/** Older tool calls listed inside the folded panel at most (the rest are counted). */
const MAX_FOLDED_TOOLS = 30;

/** Most code points of one tool line (a tool name can be any length). */
const MAX_TOOL_LINE_CHARS = 300;
/** Most code points of the model name in the footer, and of the whole footer line. */
const MAX_MODEL_CHARS = 80;
const MAX_FOOTER_CHARS = 300;

const TOOL_ICON: Readonly<Record<ToolLine['state'], string>> = { running: '⏳', finished: '✅', failed: '❌', orphan: '▫️', interrupted: '⏹' };

/** A Card JSON 2.0 `markdown` component. */
export const markdown = (element_id: string, content: string, extra: Record<string, unknown> = {}): FeishuElement => ({
  tag: 'markdown',
  element_id,
  content,
  ...extra,
});

/**
 * A panel the reader can open and fold (Card JSON 2.0 `collapsible_panel`, folded unless `expanded`)
 * with a plain-text title; https://open.feishu.cn/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/card-json-v2-components/containers/collapsible-panel
 */
export function panel(element_id: string, title: string, elements: FeishuElement[], options: { readonly expanded?: boolean } = {}): FeishuElement {
  return {
    tag: 'collapsible_panel',
    element_id,
    expanded: options.expanded ?? false,
    header: { title: { tag: 'plain_text', content: title } },
    border: { color: 'grey', corner_radius: '5px' },
    elements,
  };
}

function toolItem(tool: ToolLine): string {
  return `- ${TOOL_ICON[tool.state]} ${escapeCardMarkdown(oneLine(tool.text, MAX_TOOL_LINE_CHARS))}`;
}

/** Most of a subagent's calls listed in its panel (its latest; the rest are counted). */
const MAX_SUBAGENT_TOOLS = 10;

/** An entry's calls, its subagent's included. */
const callsOf = (entry: ToolTreeEntry) => 1 + entry.children.length + entry.hiddenChildren;

/**
 * A subagent as a native fold: a `collapsible_panel` whose title is the subagent's line (status,
 * elapsed time, tool count) and whose body lists its latest calls; open while it runs, folded once done.
 */
function subagentPanel(id: string, entry: ToolTreeEntry, locale: CardView['locale']): FeishuElement {
  const lines = [
    ...(entry.hiddenChildren > 0 ? [`- ${escapeCardMarkdown(hiddenChildrenText(entry.hiddenChildren, locale))}`] : []),
    ...entry.children.map((child) => `- ${TOOL_ICON[child.state]} ${escapeCardMarkdown(oneLine(childToolText(child, entry.line), MAX_TOOL_LINE_CHARS))}`),
  ];
  const title = `${TOOL_ICON[entry.line.state]} ${oneLine(entry.line.text, MAX_TOOL_LINE_CHARS)}`;
  return panel(id, title, [markdown(`${id}_tools`, lines.join('\n'), { text_size: 'notation' })], { expanded: entry.open });
}

/**
 * The tools section: a title and the calls' lines (texts with live durations come from the core).
 * Up to `unfolded` entries (default 3) all show. With more, the latest and the most recent running
 * ones (`unfolded` at most in all) stay visible and the others fold into a panel (at most 30 listed,
 * the rest counted). A subagent call is a panel of its own holding its calls, open while it runs.
 * `compact` replaces the panels with lines (folded calls counted).
 */
export function toolElements(view: CardView, texts: CardTexts, compact: boolean, unfolded: number = VISIBLE_TOOLS): FeishuElement[] {
  const tools = view.tools;
  if (tools.length === 0) return [];
  const out: FeishuElement[] = [{ tag: 'hr', element_id: 'tools_divider' }, markdown('tools_title', `**${texts.tools}** · ${tools.length}`)];
  const tree = toolTree(tools, { maxEntries: Math.max(1, unfolded), maxChildren: MAX_SUBAGENT_TOOLS, fillWithLatest: false });
  if (tree.older.length > 0) {
    if (compact) {
      out.push(markdown('tools_older', `- ${texts.moreEarlierTools(tree.olderCalls)}`, { text_size: 'notation' }));
    } else {
      const listed = tree.older.slice(-MAX_FOLDED_TOOLS);
      const hidden = tree.olderCalls - listed.reduce((sum, entry) => sum + callsOf(entry), 0);
      const lines = [...(hidden > 0 ? [`- ${texts.moreEarlierTools(hidden)}`] : []), ...listed.map((entry) => toolItem(entry.line))];
      out.push(panel('tools_panel', texts.earlierTools(tree.olderCalls), [markdown('tools_older', lines.join('\n'))]));
    }
  }
  // Runs of plain calls share one markdown element (the first keeps the id `tools`); each subagent is its own panel.
  let plain: string[] = [];
  let groups = 0;
  let panels = 0;
  const flush = () => {
    if (plain.length === 0) return;
    out.push(markdown(groups === 0 ? 'tools' : `tools_${groups + 1}`, plain.join('\n')));
    groups += 1;
    plain = [];
  };
  for (const entry of tree.entries) {
    if (!entry.subagent || compact) {
      plain.push(toolItem(entry.line));
      continue;
    }
    flush();
    panels += 1;
    out.push(subagentPanel(`subagent_${panels}`, entry, view.locale));
  }
  flush();
  return out;
}

/** Footer options. */
export interface FooterRender {
  readonly style: FooterStyle;
  /** Parts shown (default: all the style shows). */
  readonly fields?: readonly FooterField[];
  readonly timeZone?: string;
}

/**
 * The footer as small grey text (2.0 has no `note`: a notation-size markdown element), shown on
 * terminal cards only, so renders of a running card stay comparable between ticks.
 */
export function footerElements(view: CardView, footer: FooterRender, locale: CardView['locale']): FeishuElement[] {
  if (!isTerminalStatus(view.status)) return [];
  // A model name is whatever the agent said: one line, cut, so the footer never grows the card past its size guard.
  const model = view.footer.model === undefined ? undefined : oneLine(view.footer.model, MAX_MODEL_CHARS);
  const text = oneLine(formatFooter({ ...view.footer, model }, { style: footer.style, fields: footer.fields, locale, timeZone: footer.timeZone }), MAX_FOOTER_CHARS);
  return [markdown('footer', `<font color='grey'>${escapeCardMarkdown(text)}</font>`, { text_size: 'notation' })];
}

/** Keeps the last `maxChars` characters of `text`, marking the cut with `…`. */
export function tail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const start = text.length - maxChars;
  const newline = text.indexOf('\n', start);
  const from = newline >= 0 && newline - start < 200 ? newline : start;
  // Never start inside a surrogate pair (half an emoji).
  return `…${text.slice(isLowSurrogate(text.charCodeAt(from)) ? from + 1 : from)}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
