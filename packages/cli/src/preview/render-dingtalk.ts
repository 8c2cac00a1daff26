import { escapeHtml, renderMarkdown } from './markdown.js';

/**
 * DingTalk card data → HTML. A card is a template filled with string variables
 * (`cardParamMap`), so the preview shows it generically: the title variable as the header, the
 * markdown variable(s) as the body, and the AI-card state (from `flowStatus`) as the header colour.
 * Variable names follow the plugin's defaults (`msgTitle`, `msgContent`, `flowStatus`) with
 * fallbacks, so a custom template still shows its data; other variables are listed below.
 */

const TITLE_KEYS = ['msgTitle', 'title', 'cardTitle'];
const CONTENT_KEYS = ['msgContent', 'content', 'markdown', 'text'];
const HIDDEN_KEYS = new Set(['flowStatus', 'sys_full_json_obj', 'config', 'pcControls']);

/** progresscard's controls variable (`pcControls`): buttons and an input the page can click. */
function controls(raw: string | undefined): string {
  let parsed: { buttons?: { text?: unknown; color?: unknown }[]; input?: { text?: unknown; placeholder?: unknown } };
  try {
    parsed = JSON.parse(raw || '{}') as typeof parsed;
  } catch {
    return '';
  }
  const button = (text: unknown, color: unknown, submit: boolean) => {
    const label = typeof text === 'string' ? text : '';
    const kind = color === 'blue' ? 'primary' : color === 'red' ? 'danger' : 'default';
    return `<button type="button" class="el btn btn-${kind}" data-button="${escapeHtml(label)}"${submit ? ' data-submit="1"' : ''}>${escapeHtml(label)}</button>`;
  };
  const buttons = (parsed.buttons ?? []).map((b) => button(b.text, b.color, false)).join('');
  const input = parsed.input
    ? `<div class="el form"><input class="el input" type="text" data-input="answer" placeholder="${escapeHtml(typeof parsed.input.placeholder === 'string' ? parsed.input.placeholder : '')}">${button(parsed.input.text, 'blue', true)}</div>`
    : '';
  return buttons + input;
}

/** AI-card state → header colour class. */
const STATE_COLOR: Record<string, string> = {
  processing: 'blue',
  inputting: 'blue',
  executing: 'blue',
  finished: 'green',
  failed: 'red',
};

/** Renders one DingTalk card's public data and AI-card state as an HTML fragment. */
export function renderDingTalkCard(cardData: Readonly<Record<string, string>>, state: string): string {
  const titleKey = TITLE_KEYS.find((k) => typeof cardData[k] === 'string');
  const contentKeys = CONTENT_KEYS.filter((k) => typeof cardData[k] === 'string');
  const title = titleKey ? cardData[titleKey]! : '';
  const body = contentKeys.map((k) => `<div class="el markdown">${renderMarkdown(cardData[k]!)}</div>`).join('');
  const others = Object.keys(cardData).filter((k) => k !== titleKey && !contentKeys.includes(k) && !HIDDEN_KEYS.has(k));
  const extra = others.length
    ? `<dl class="el vars">${others.map((k) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(cardData[k]!)}</dd>`).join('')}</dl>`
    : '';
  const color = STATE_COLOR[state] ?? 'default';
  return `<div class="card dingtalk-card"><div class="card-header hdr-${color}"><div class="card-title">${escapeHtml(title)}</div><div class="card-subtitle">AI card · ${escapeHtml(state)}</div></div><div class="card-body">${body}${controls(cardData.pcControls)}${extra}</div></div>`;
}
