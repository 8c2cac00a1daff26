import { formatFooter, isTerminalStatus, oneLine, type CardView, type FooterField, type FooterStyle, type ToolLine } from '@progresscard/core/plugin';
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

/**
 * The tools section: a title and the calls' lines (texts with live durations come from the core).
 * Up to `unfolded` calls (default 3) all show. With more, the latest call and the most recent running
 * ones (`unfolded` at most in all) stay visible and the others fold into a panel (at most 30 listed,
 * the rest counted). `compact` replaces the panel with one line that counts the folded calls.
 */
export function toolElements(view: CardView, texts: CardTexts, compact: boolean, unfolded: number = VISIBLE_TOOLS): FeishuElement[] {
  const tools = view.tools;
  if (tools.length === 0) return [];
  const out: FeishuElement[] = [{ tag: 'hr', element_id: 'tools_divider' }, markdown('tools_title', `**${texts.tools}** · ${tools.length}`)];
  if (tools.length <= unfolded) {
    out.push(markdown('tools', tools.map(toolItem).join('\n')));
    return out;
  }
  const latest = tools.length - 1;
  const shown = new Set<number>([latest]);
  for (let i = latest - 1; i >= 0 && shown.size < unfolded; i--) if (tools[i]!.state === 'running') shown.add(i);
  const visible = tools.filter((_, i) => shown.has(i));
  const folded = tools.filter((_, i) => !shown.has(i));
  if (compact) {
    out.push(markdown('tools_older', `- ${texts.moreEarlierTools(folded.length)}`, { text_size: 'notation' }));
  } else {
    const listed = folded.slice(-MAX_FOLDED_TOOLS);
    const hidden = folded.length - listed.length;
    const lines = [...(hidden > 0 ? [`- ${texts.moreEarlierTools(hidden)}`] : []), ...listed.map(toolItem)];
    out.push(panel('tools_panel', texts.earlierTools(folded.length), [markdown('tools_older', lines.join('\n'))]));
  }
  out.push(markdown('tools', visible.map(toolItem).join('\n')));
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
