import type { EventOf } from '../events/contract.js';
import { oneLine, wellFormed } from './format/text.js';
import type { CardAttachment, Locale } from './view.js';

export type { CardAttachment } from './view.js';

/** Most files one card attaches; later ones are named as not uploaded. */
export const MAX_CARD_ATTACHMENTS = 5;

/** The attachments of one card, in the order attached; one per path. */
export class CardAttachments {
  private readonly byId = new Map<string, CardAttachment>();

  /** Adds the event's file; returns it, or undefined for a path already attached. */
  add(event: EventOf<'attachment'>): CardAttachment | undefined {
    const path = wellFormed(event.path);
    if ([...this.byId.values()].some((file) => file.path === path)) return undefined;
    const name = oneLine(wellFormed(event.name ?? (path.split(/[\\/]/).pop() || path)), 200);
    const id = `file_${this.byId.size + 1}`;
    const file: CardAttachment =
      this.byId.size >= MAX_CARD_ATTACHMENTS
        ? { id, name, path, state: 'not-uploaded', reason: `more than ${MAX_CARD_ATTACHMENTS} files` }
        : { id, name, path, state: 'pending' };
    this.byId.set(id, file);
    return file;
  }

  /** Records an upload's outcome; returns true when the card changed. */
  settle(id: string, outcome: { readonly url?: string } | { readonly reason: string }): boolean {
    const file = this.byId.get(id);
    if (file?.state !== 'pending') return false;
    this.byId.set(
      id,
      'reason' in outcome
        ? { ...file, state: 'not-uploaded', reason: oneLine(wellFormed(outcome.reason), 200) }
        : { ...file, state: 'uploaded', ...(outcome.url ? { url: outcome.url } : {}) },
    );
    return true;
  }

  list(): readonly CardAttachment[] {
    return [...this.byId.values()];
  }
}

/**
 * An attachment's line on a card, without markup: `📎 report.md`, `📎 report.md (uploading…)`,
 * `📎 report.md (not uploaded: too large)` / `📎 report.md（未上传：文件过大）`.
 */
export function attachmentText(file: CardAttachment, locale: Locale): string {
  const zh = locale === 'zh-CN';
  if (file.state === 'uploaded') return `📎 ${file.name}`;
  if (file.state === 'pending') return zh ? `📎 ${file.name}（上传中…）` : `📎 ${file.name} (uploading…)`;
  return zh ? `📎 ${file.name}（未上传：${file.reason ?? '未知原因'}）` : `📎 ${file.name} (not uploaded: ${file.reason ?? 'unknown reason'})`;
}
