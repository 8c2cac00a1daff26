/**
 * Discord REST answers the emulator gives: a JSON error `{ code, message, errors? }` with an HTTP
 * status (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json), and rate limits
 * as HTTP 429 `{ message, retry_after, global }` (https://discord.com/developers/docs/topics/rate-limits).
 */

/** Route names used in fault rules, call history, counts and rate-limit buckets. */
export const DISCORD_ROUTES = {
  getCurrentUser: 'users.me',
  createMessage: 'messages.create',
  editMessage: 'messages.edit',
  deleteMessage: 'messages.delete',
  listMessages: 'messages.list',
  interactionCallback: 'interactions.callback',
} as const;

/** One of {@link DISCORD_ROUTES}. */
export type DiscordRoute = (typeof DISCORD_ROUTES)[keyof typeof DISCORD_ROUTES];

/** Every route name, for validating fault rules. */
export const DISCORD_ROUTE_NAMES: readonly DiscordRoute[] = Object.values(DISCORD_ROUTES);

/** A Discord error answer. */
export interface DiscordError {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly errors?: unknown;
}

const error = (status: number, code: number, message: string, errors?: unknown): DiscordError => ({ status, code, message, ...(errors ? { errors } : {}) });

/** JSON error codes of https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes. */
export const DiscordErrors = {
  unauthorized: () => error(401, 0, '401: Unauthorized'),
  unknownChannel: () => error(404, 10003, 'Unknown Channel'),
  unknownMessage: () => error(404, 10008, 'Unknown Message'),
  unknownInteraction: () => error(404, 10062, 'Unknown interaction'),
  missingAccess: () => error(403, 50001, 'Missing Access'),
  notAuthor: () => error(403, 50005, 'Cannot edit a message authored by another user'),
  emptyMessage: () => error(400, 50006, 'Cannot send an empty message'),
  /** 50035 with the `errors` tree naming the field. */
  invalidFormBody: (path: string, code: string, message: string) => {
    const tree: Record<string, unknown> = {};
    let node = tree;
    const parts = path.split('.');
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1) node[part] = { _errors: [{ code, message }] };
      else {
        const child: Record<string, unknown> = {};
        node[part] = child;
        node = child;
      }
    }
    return error(400, 50035, 'Invalid Form Body', tree);
  },
  /** A file over the upload limit (HTTP 413, https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes). */
  entityTooLarge: () => error(413, 40005, 'Request entity too large'),
  alreadyAcknowledged: () => error(400, 40060, 'Interaction has already been acknowledged.'),
  /**
   * Edits of a message older than an hour have their own cap (30046). The HTTP status and the cap
   * are not documented (UNCONFIRMED): the emulator answers 400.
   */
  oldMessageEdits: () => error(400, 30046, 'Maximum number of edits to messages older than 1 hour reached. Try again later'),
} as const;
