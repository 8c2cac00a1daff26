import type { InlineKeyboardButton } from '@grammyjs/types';

/** An inline button that calls back (https://core.telegram.org/bots/api#inlinekeyboardbutton). */
export type TelegramButton = InlineKeyboardButton.CallbackButton;

/**
 * What the renderer gives the transport: one Telegram message in HTML parse mode
 * (https://core.telegram.org/bots/api#html-style) and its inline keyboard.
 */
export interface TelegramMessage {
  /** HTML text; its visible text is at most 4096 characters. */
  readonly text: string;
  /** Rows of inline buttons (`reply_markup.inline_keyboard`); absent or empty: no keyboard. */
  readonly keyboard?: readonly (readonly TelegramButton[])[];
  /**
   * An answer part that streams: in a private chat it is shown as a live draft
   * (`sendMessageDraft`) until `persist`, then sent as a message (`sendMessage`); elsewhere it is
   * an ordinary message, sent and edited.
   */
  readonly stream?: { readonly persist: boolean };
}
