import { z } from 'zod';
import { formatFooter } from '@progresscard/core/plugin';
import { isTerminalStatus, type ChannelPlugin, type CardView, type CallFailure } from '@progresscard/core/plugin';

/** Config of the webhook channel: where to POST new cards and PUT updates. */
export const WebhookConfigSchema = z.object({ url: z.url(), tickMs: z.number().int().positive().optional() });

/** What the webhook receives: a card as markdown text. */
export interface WebhookCard { readonly status: string; readonly markdown: string }

class WebhookError extends Error {
  constructor(readonly status: number, readonly retryAfterMs?: number) { super(`webhook answered HTTP ${status}`); }
}

function toMarkdown(view: CardView): string {
  const lines = [`**${view.title || 'Agent run'}** · ${view.status}`, ...view.tools.map((tool) => `- ${tool.text}`)];
  if (view.answer) lines.push('', view.answer);
  if (isTerminalStatus(view.status)) lines.push('', `_${formatFooter(view.footer, { style: 'compact', locale: view.locale })}_`);
  return lines.join('\n');
}

async function call(method: 'POST' | 'PUT', url: string, card: WebhookCard): Promise<{ id: string }> {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(card) });
  if (!response.ok) throw new WebhookError(response.status, Number(response.headers.get('retry-after') ?? 1) * 1000);
  return (await response.json()) as { id: string };
}

/** A channel plugin for any HTTP endpoint that takes `POST url` (create → `{id}`) and `PUT url/:id` (update). */
export function webhook(config: z.input<typeof WebhookConfigSchema>): ChannelPlugin<WebhookCard> {
  const { url, tickMs } = WebhookConfigSchema.parse(config);
  return {
    id: 'webhook',
    configSchema: WebhookConfigSchema,
    defaults: { tickMs: 3000, budget: [{ limit: 10, intervalMs: 1000 }], perCardIntervalMs: 500, debounceMs: 1000 },
    overrides: { tickMs },
    renderer: {
      render: (view) => ({ status: view.status, markdown: toMarkdown(view) }),
      renderFallback: (view) => ({ status: view.status, markdown: `${view.title} · ${view.status}\n${view.answer}` }),
    },
    transport: {
      send: async ({ payload, idempotencyKey }) => call('POST', `${url}?key=${idempotencyKey}`, payload),
      update: async ({ message, payload }) => void (await call('PUT', `${url}/${message.id}`, payload)),
      classify(error): CallFailure {
        if (!(error instanceof WebhookError)) return { kind: 'transient', detail: String(error) };
        if (error.status === 429) return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs, scope: 'channel', detail: '429' };
        if (error.status === 404 || error.status === 410) return { kind: 'gone', detail: String(error.status) };
        if (error.status === 401) return { kind: 'auth', detail: '401' };
        return error.status >= 500 ? { kind: 'transient', detail: String(error.status) } : { kind: 'rejected', detail: String(error.status) };
      },
    },
  };
}
