import { escapeHtml } from './markdown.js';

/**
 * Slack Block Kit → HTML. Blocks hold mrkdwn already escaped by the plugin (`&amp;`, `&lt;`, `&gt;`),
 * so text is unescaped once and escaped again for HTML; `*bold*`, `_italic_`, `` `code` `` and code
 * fences are shown, everything else as text (https://api.slack.com/reference/surfaces/formatting).
 */

interface Block {
  readonly type?: string;
  readonly block_id?: string;
  readonly text?: { readonly text?: string };
  // A context element's text is a string; a button's is a plain_text object.
  readonly elements?: readonly { readonly type?: string; readonly text?: string | { readonly text?: string }; readonly style?: string }[];
  readonly label?: { readonly text?: string };
  readonly element?: { readonly placeholder?: { readonly text?: string } };
}

const textOf = (text: string | { readonly text?: string } | undefined) => (typeof text === 'string' ? text : (text?.text ?? ''));

function mrkdwn(text: string): string {
  const plain = text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return plain
    .split(/(```[\s\S]*?```)/g)
    .map((part) => {
      if (part.startsWith('```')) return `<pre>${escapeHtml(part.slice(3, -3).replace(/^\w*\n/, ''))}</pre>`;
      return escapeHtml(part)
        .replace(/`([^`\n]+)`/g, '<code>$1</code>')
        .replace(/(^|[\s(])\*([^*\n]+)\*/g, '$1<b>$2</b>')
        .replace(/(^|[\s(])_([^_\n]+)_/g, '$1<i>$2</i>')
        .replace(/\n/g, '<br>');
    })
    .join('');
}

/** The state shown on the card holder, from the status context: `completed`, `failed`, `cancelled`, `waiting` or `running`. */
export function slackCardState(blocks: unknown): string {
  const status = textOf(((blocks ?? []) as Block[]).find((b) => b.block_id === 'status' || b.block_id?.startsWith('status.'))?.elements?.[0]?.text);
  if (/white_check_mark/.test(status)) return 'completed';
  if (/:x:/.test(status)) return 'failed';
  if (/no_entry_sign/.test(status)) return 'cancelled';
  if (/raising_hand/.test(status)) return 'waiting';
  return 'running';
}

/** Renders one Slack message (its blocks, or its text when it has none) as an HTML fragment. */
export function renderSlackMessage(text: string, blocks: unknown): string {
  const list = Array.isArray(blocks) ? (blocks as Block[]) : [];
  if (list.length === 0) return `<div class="el markdown">${mrkdwn(text)}</div>`;
  return list
    .map((b) => {
      if (b.type === 'header') return `<div class="card-header"><div class="title">${escapeHtml(b.text?.text ?? '')}</div></div>`;
      if (b.type === 'section') return `<div class="el markdown">${mrkdwn(b.text?.text ?? '')}</div>`;
      if (b.type === 'context') return `<div class="el note">${(b.elements ?? []).map((e) => mrkdwn(textOf(e.text))).join(' ')}</div>`;
      // Buttons and the answer input: the page sends a click to the emulator (`data-button`), as a Slack user would.
      if (b.type === 'actions') {
        return (b.elements ?? [])
          .filter((e) => e.type === 'button')
          .map((e) => {
            const label = textOf(e.text);
            return `<button type="button" class="el btn btn-${e.style === 'primary' ? 'primary' : e.style === 'danger' ? 'danger' : 'default'}" data-button="${escapeHtml(label)}">${escapeHtml(label)}</button>`;
          })
          .join('');
      }
      if (b.type === 'input') {
        const label = b.label?.text ?? '';
        return `<div class="el form"><input class="el input" type="text" data-input="answer" placeholder="${escapeHtml(b.element?.placeholder?.text ?? '')}"><button type="button" class="el btn btn-primary" data-button="${escapeHtml(label)}" data-submit="1">${escapeHtml(label)}</button></div>`;
      }
      if (b.type === 'divider') return '<hr>';
      return '';
    })
    .join('');
}
