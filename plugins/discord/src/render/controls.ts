import { oneLine, type CardView } from '@progresscard/core/plugin';
import { ButtonStyle, ComponentType, type APIActionRowComponent } from 'discord-api-types/v10';
import type { CustomIdRegistry } from '../interaction/custom-id.js';
import { escapeMarkdown } from './markdown.js';
import type { DiscordButton } from './payload.js';
import { DISCORD_TEXTS } from './texts.js';

/** How open questions are drawn: `buttons` (needs the interactions endpoint) or `text` (the reply to type). */
export type ControlStyle = 'buttons' | 'text';

const TONE = { positive: '✅', negative: '❌', timeout: '⌛' } as const;
const STYLE = { primary: ButtonStyle.Primary, danger: ButtonStyle.Danger, default: ButtonStyle.Secondary } as const;

/** The decisions made so far, one line each. */
export function decisionLines(view: CardView): string[] {
  const texts = DISCORD_TEXTS[view.locale];
  return (view.decisions ?? []).map((d) => {
    const who = d.tone === 'timeout' ? texts.timedOut : (d.by ?? '');
    return `${TONE[d.tone]} ${escapeMarkdown(oneLine(d.answer, 200))}${who ? ` · ${escapeMarkdown(oneLine(who, 60))}` : ''}`;
  });
}

/**
 * Action rows of the open question's options (five a row, four rows at most) and a row with Stop;
 * none with `text` style or when the callbacks could not start. A free-text question takes a typed
 * reply ({@link replyLine}).
 */
export function componentsOf(view: CardView, style: ControlStyle, customIds: CustomIdRegistry): APIActionRowComponent<DiscordButton>[] {
  const controls = view.controls;
  if (!controls || style === 'text' || controls.replyByText === true) return [];
  const pending = controls.pending;
  const buttons: DiscordButton[] = (pending?.options ?? []).slice(0, 20).map((option) => ({
    type: ComponentType.Button,
    style: STYLE[option.style ?? 'default'],
    label: oneLine(option.label, 80),
    custom_id: customIds.encode({ cardId: controls.cardId, interactionId: pending!.id, optionId: option.id }),
  }));
  const rows: APIActionRowComponent<DiscordButton>[] = [];
  for (let i = 0; i < buttons.length; i += 5) rows.push({ type: ComponentType.ActionRow, components: buttons.slice(i, i + 5) });
  if (controls.stop) {
    const stop: DiscordButton = { type: ComponentType.Button, style: ButtonStyle.Danger, label: DISCORD_TEXTS[view.locale].stop, custom_id: customIds.encode({ cardId: controls.cardId, interactionId: 'stop', optionId: 'stop' }) };
    rows.push({ type: ComponentType.ActionRow, components: [stop] });
  }
  return rows;
}

/** The reply to type (`/approve 3F2A`), when the question is answered by text. */
export function replyLine(view: CardView, style: ControlStyle): string | undefined {
  const pending = view.controls?.pending;
  if (!pending) return undefined;
  const byText = style === 'text' || view.controls?.replyByText === true;
  const replies = byText ? pending.options.map((o) => `\`/${o.id} ${pending.code}\` (${escapeMarkdown(oneLine(o.label, 40))})`) : [];
  if (pending.freeText) replies.push(`\`/answer ${pending.code} …\``);
  return replies.length > 0 ? `${DISCORD_TEXTS[view.locale].reply}: ${replies.join(' / ')}` : undefined;
}
