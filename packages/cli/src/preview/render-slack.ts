import { escapeHtml, renderMarkdown } from './markdown.js';
import { PLATFORM_STOP_BUTTON } from './model.js';
import { planHtml, streamHtml, tableHtml, taskCardHtml } from './render-slack-ai.js';

/**
 * Slack Block Kit → HTML. Blocks hold mrkdwn already escaped by the plugin (`&amp;`, `&lt;`, `&gt;`),
 * so text is unescaped once and escaped again for HTML; `*bold*`, `_italic_`, `` `code` `` and code
 * fences are shown, everything else as text (https://api.slack.com/reference/surfaces/formatting).
 */

interface Block {
  readonly type?: string;
  readonly block_id?: string;
  readonly text?: string | { readonly text?: string };
  // A context element's text is a string; a button's is a plain_text object.
  readonly elements?: readonly { readonly type?: string; readonly text?: string | { readonly text?: string }; readonly style?: string }[];
  readonly label?: { readonly text?: string };
  readonly element?: { readonly placeholder?: { readonly text?: string } };
  // plan, task_card and table blocks (render-slack-ai.ts); a markdown block's text is a string.
  readonly title?: string;
  readonly tasks?: readonly { readonly task_id?: string; readonly title?: string; readonly status?: string; readonly details?: unknown }[];
  readonly task_id?: string;
  readonly status?: string;
  readonly details?: unknown;
  readonly rows?: readonly (readonly unknown[])[];
  readonly column_settings?: readonly { readonly align?: string }[];
}

/** A streamed message's stream, as the emulator shows it (`SlackStreamSnapshot`). */
export interface SlackPreviewStream {
  readonly state: string;
  readonly planTitle?: string;
  readonly tasks: readonly { readonly id: string; readonly title: string; readonly status: string; readonly details?: string }[];
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

/**
 * Renders one Slack message (its blocks, or its text when it has none) as an HTML fragment. A
 * streamed message shows its plan, task steps and text, the blocks given at stop below them, and
 * while it streams the Stop control Slack puts on an agent's stream (`data-button` {@link PLATFORM_STOP_BUTTON}).
 */
export function renderSlackMessage(text: string, blocks: unknown, stream?: SlackPreviewStream): string {
  const list = Array.isArray(blocks) ? (blocks as Block[]) : [];
  if (stream) {
    const stop = stream.state === 'streaming' ? `<button type="button" class="el btn btn-default btn-stop" data-button="${PLATFORM_STOP_BUTTON}">■ Stop</button>` : '';
    return streamHtml(text, { planTitle: stream.planTitle, tasks: stream.tasks }) + renderBlocks(list) + stop;
  }
  if (list.length === 0) return `<div class="el markdown">${mrkdwn(text)}</div>`;
  return renderBlocks(list);
}

function renderBlocks(list: readonly Block[]): string {
  return list
    .map((b) => {
      if (b.type === 'header') return `<div class="card-header"><div class="title">${escapeHtml(textOf(b.text))}</div></div>`;
      if (b.type === 'section') return `<div class="el markdown">${mrkdwn(textOf(b.text))}</div>`;
      if (b.type === 'context') return `<div class="el note">${(b.elements ?? []).map((e) => mrkdwn(textOf(e.text))).join(' ')}</div>`;
      if (b.type === 'plan') return planHtml(b.title ?? '', b.tasks ?? []);
      if (b.type === 'task_card') return taskCardHtml(b);
      if (b.type === 'table') return tableHtml(b.rows ?? [], b.column_settings);
      if (b.type === 'markdown') return `<div class="el markdown">${renderMarkdown(typeof b.text === 'string' ? b.text : '')}</div>`;
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
