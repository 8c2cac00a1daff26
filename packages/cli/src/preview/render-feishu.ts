import { escapeHtml, renderMarkdown } from './markdown.js';

/**
 * Feishu / Lark card JSON → HTML, close to how the chat shows it: header with its colour template,
 * title and subtitle, then the body elements. Covers Card JSON 2.0 (`body.elements`) and the older
 * 1.0 layout (`elements`); the tags the progresscard plugin uses (markdown with `text_size`, div
 * with plain_text / lark_md, hr, collapsible_panel, column_set) render natively, any other tag as a
 * labelled placeholder so nothing silently disappears.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const SAFE_WORD = /^[a-z0-9_-]{1,30}$/i;

function sizeClass(size: unknown): string {
  return typeof size === 'string' && SAFE_WORD.test(size) ? ` size-${size}` : '';
}

function alignStyle(align: unknown): string {
  return align === 'center' || align === 'right' ? ` style="text-align:${align}"` : '';
}

/** A text object (`{ tag: 'plain_text' | 'lark_md' | 'markdown', content }`) → HTML. */
function textObject(text: unknown): string {
  if (typeof text === 'string') return escapeHtml(text);
  if (!isObject(text)) return '';
  const content = str(text.content);
  if (text.tag === 'lark_md' || text.tag === 'markdown') return renderMarkdown(content);
  return `<span class="plain">${escapeHtml(content)}</span>`;
}

function elements(list: unknown): string {
  return Array.isArray(list) ? list.map(element).join('') : '';
}

function element(el: unknown): string {
  if (!isObject(el)) return '';
  switch (el.tag) {
    case 'markdown':
    case 'lark_md':
      return `<div class="el markdown${sizeClass(el.text_size)}"${alignStyle(el.text_align)}>${renderMarkdown(str(el.content))}</div>`;
    case 'div':
    case 'plain_text':
      return `<div class="el div${sizeClass(isObject(el.text) ? el.text.text_size : el.text_size)}">${textObject(el.text ?? el)}</div>`;
    case 'hr':
      return '<hr class="el">';
    case 'collapsible_panel': {
      const header = isObject(el.header) ? el.header : {};
      const open = el.expanded === true ? ' open' : '';
      return `<details class="el fold"${open}><summary>${textObject(header.title)}</summary><div class="fold-body">${elements(el.elements)}</div></details>`;
    }
    case 'column_set':
      return `<div class="el columns">${(Array.isArray(el.columns) ? el.columns : [])
        .map((c) => `<div class="column">${isObject(c) ? elements(c.elements) : ''}</div>`)
        .join('')}</div>`;
    case 'note':
      return `<div class="el note size-notation">${elements(el.elements)}</div>`;
    case 'button': {
      // A click is sent to the emulator by the page (`data-button`), as a Feishu user would click.
      const label = isObject(el.text) ? str(el.text.content) : '';
      const kind = el.type === 'primary' || el.type === 'danger' ? el.type : 'default';
      const submit = el.form_action_type === 'submit' ? ' data-submit="1"' : '';
      return `<button type="button" class="el btn btn-${kind}" data-button="${escapeHtml(label)}"${submit}>${escapeHtml(label)}</button>`;
    }
    case 'form':
      return `<div class="el form">${elements(el.elements)}</div>`;
    case 'input': {
      const placeholder = isObject(el.placeholder) ? str(el.placeholder.content) : '';
      return `<input class="el input" type="text" data-input="${escapeHtml(str(el.name))}" placeholder="${escapeHtml(placeholder)}">`;
    }
    default:
      return `<div class="el unknown">[${escapeHtml(String(el.tag ?? 'element'))}]</div>`;
  }
}

/** Header colour templates Feishu defines; anything else shows as default. */
const TEMPLATES = new Set(['blue', 'wathet', 'turquoise', 'green', 'yellow', 'orange', 'red', 'carmine', 'violet', 'purple', 'indigo', 'grey', 'default']);

/** The colour template of a card's header (`default` when absent or unknown). */
export function feishuTemplate(card: unknown): string {
  const header = isObject(card) && isObject(card.header) ? card.header : undefined;
  const template = header ? str(header.template) : '';
  return TEMPLATES.has(template) ? template : 'default';
}

/** Renders a Feishu interactive card (parsed JSON) as an HTML fragment. */
export function renderFeishuCard(card: unknown): string {
  if (!isObject(card)) return '<div class="card-empty">(no card)</div>';
  const header = isObject(card.header) ? card.header : undefined;
  const head = header
    ? `<div class="card-header hdr-${feishuTemplate(card)}"><div class="card-title">${textObject(header.title)}</div>${
        header.subtitle ? `<div class="card-subtitle">${textObject(header.subtitle)}</div>` : ''
      }</div>`
    : '';
  const body = isObject(card.body) ? card.body.elements : card.elements;
  return `<div class="card feishu-card">${head}<div class="card-body">${elements(body)}</div></div>`;
}

/** Renders a Feishu message's content: an interactive card, or a text/post message's text. */
export function renderFeishuMessage(msgType: string, content: string, card: unknown): string {
  if (card !== undefined) return renderFeishuCard(card);
  let text = content;
  try {
    const parsed = JSON.parse(content) as unknown;
    if (isObject(parsed) && typeof parsed.text === 'string') text = parsed.text;
  } catch {
    // not JSON: show as is
  }
  return `<div class="card feishu-card"><div class="card-body"><div class="el div">${escapeHtml(`[${msgType}] ${text}`)}</div></div></div>`;
}
