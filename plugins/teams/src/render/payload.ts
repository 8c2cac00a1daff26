/**
 * Adaptive Card shapes the renderer draws (https://adaptivecards.io/explorer/, schema 1.5 as Teams
 * supports it, https://learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/cards-reference).
 */

/** A `TextBlock` (Teams renders a Markdown subset in `text`). */
interface AdaptiveTextBlock {
  readonly type: 'TextBlock';
  readonly text: string;
  readonly wrap?: boolean;
  readonly weight?: 'Default' | 'Lighter' | 'Bolder';
  readonly size?: 'Small' | 'Default' | 'Medium' | 'Large';
  readonly isSubtle?: boolean;
  readonly color?: 'Default' | 'Good' | 'Warning' | 'Attention' | 'Accent';
  readonly spacing?: 'None' | 'Small' | 'Default' | 'Medium';
  readonly separator?: boolean;
}

/** An `Input.Text` (a free-text answer; its value is merged into the action's data under its `id`). */
interface AdaptiveTextInput {
  readonly type: 'Input.Text';
  readonly id: string;
  readonly placeholder?: string;
  readonly isMultiline?: boolean;
  readonly maxLength?: number;
}

/** A `Table` (schema 1.5, https://learn.microsoft.com/en-us/adaptive-cards/schema-explorer/table): the first row is the header. */
export interface AdaptiveTable {
  readonly type: 'Table';
  readonly columns: readonly { readonly width: number; readonly horizontalCellContentAlignment?: 'Left' | 'Center' | 'Right' }[];
  readonly rows: readonly { readonly type: 'TableRow'; readonly cells: readonly { readonly type: 'TableCell'; readonly items: readonly AdaptiveTextBlock[] }[] }[];
  readonly firstRowAsHeader: true;
  readonly separator?: boolean;
}

/** An element of a card's body. */
export type AdaptiveElement = AdaptiveTextBlock | AdaptiveTextInput | AdaptiveTable;

/** What an `Action.Execute` carries back in its invoke's `value.action.data`. */
export interface TeamsActionData {
  /** `CardControls.cardId`. */
  readonly cardId: string;
  /** The interaction id, or `stop`. */
  readonly interactionId: string;
  readonly optionId?: string;
}

/** `Action.Execute` (Universal Actions): a click sends the bot an `adaptiveCard/action` invoke. */
export interface AdaptiveExecuteAction {
  readonly type: 'Action.Execute';
  readonly title: string;
  readonly verb: string;
  readonly data: TeamsActionData;
  readonly style?: 'default' | 'positive' | 'destructive';
}

/** An Adaptive Card. */
export interface AdaptiveCard {
  readonly type: 'AdaptiveCard';
  readonly $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  readonly version: '1.5';
  readonly body: readonly AdaptiveElement[];
  readonly actions?: readonly AdaptiveExecuteAction[];
  /** Full width in Teams (https://learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/cards-format#full-width-adaptive-card). */
  readonly msteams?: { readonly width: 'Full' };
}

/** What the renderer gives the transport: an Adaptive Card with its notification summary, or plain text. */
export interface TeamsMessage {
  /** The card (absent in the plain-text fallback). */
  readonly card?: AdaptiveCard;
  /** Markdown text: the fallback's whole content; with a card, left out. */
  readonly text?: string;
  /** The line notifications and the chat list show for a card. */
  readonly summary: string;
  /** Entities of a text message: the `mention` of the completion ping's requester. */
  readonly entities?: readonly Record<string, unknown>[];
}

/** The MIME type of an Adaptive Card attachment. */
export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

/** A Bot Framework activity as the plugin sends it (https://github.com/microsoft/botframework-sdk/blob/main/specs/botframework-activity/botframework-activity.md). */
export interface TeamsActivity {
  readonly type: 'message' | 'typing';
  readonly text?: string;
  readonly textFormat?: 'markdown' | 'plain';
  readonly summary?: string;
  readonly attachments?: readonly { readonly contentType: typeof ADAPTIVE_CARD_CONTENT_TYPE; readonly content: AdaptiveCard }[];
  readonly entities?: readonly Record<string, unknown>[];
  readonly channelData?: Record<string, unknown>;
}

/** The activity that carries `message`. */
export function activityOf(message: TeamsMessage): TeamsActivity {
  if (!message.card) return { type: 'message', textFormat: 'markdown', text: message.text ?? message.summary, ...(message.entities ? { entities: message.entities } : {}) };
  return { type: 'message', summary: message.summary, attachments: [{ contentType: ADAPTIVE_CARD_CONTENT_TYPE, content: message.card }] };
}
