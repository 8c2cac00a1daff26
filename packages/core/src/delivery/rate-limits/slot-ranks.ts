/**
 * How much a reservation matters, most first. A budget store serves higher ranks first across every
 * process sharing it (see {@link SLOT_RANK_POLICY}):
 * - `final`: a card's terminal state (the answer, the failure);
 * - `first-card`: a new message (a run's first card, a continuation part), so the card appears at once;
 * - `structural`: an update showing something new (a tool started or finished, text, a status);
 * - `progress`: an update showing only time passing or streamed text under pressure (lowest).
 */
export type SlotRank = 'final' | 'first-card' | 'structural' | 'progress';

/** What a rank may do with a key's budget. */
export interface SlotRankPolicy {
  /**
   * True: the call may run ahead of the key's paced schedule (see {@link burstSpacingMs}) on a key
   * of several windows (a key of one window has no capacity beyond its pace), as long as every window has room (a key idle for a while spends its burst capacity:
   * Feishu's 50/s within 1 000/min). False: the call waits for the paced schedule, which calls of
   * bursting ranks pushed back (they are paid back from the lower ranks' share).
   */
  readonly burst: boolean;
  /**
   * Share of each window's limit that calls of this rank leave free for higher ranks (rounded down,
   * at least {@link SlotRankPolicy.minKeepFree}); only in windows of at least
   * {@link SHARED_WINDOW_MIN_LIMIT} calls.
   */
  readonly keepFreeShare: number;
  /** Least slots of each such window left free for higher ranks. */
  readonly minKeepFree: number;
  /**
   * Share of each long window (of at least {@link LONG_WINDOW_MIN_MS}) left free for higher ranks
   * instead, when larger than `keepFreeShare` (e.g. a burst of first cards leaves part of a minute's
   * create limit to the finals of runs that end before their card could be sent).
   */
  readonly longWindowKeepFreeShare?: number;
  /**
   * Most of each long window a rank with a `longWindowKeepFreeShare` leaves free for the cards still
   * to send (`SlotRequest.unsentCards`), as a share of its limit: past it, first cards keep the rest.
   * Uncapped, more cards waiting than the window's limit left first cards one call per window (300
   * runs at once on a route of 100 creates a minute: one first card a minute, runs silent for hours).
   */
  readonly unsentKeepFreeMaxShare?: number;
}

/** Windows of at least this many ms are long: a burst can spend them for a long while (Feishu's 1 000 a minute). */
const LONG_WINDOW_MIN_MS = 60_000;

/**
 * The ladder of ranks as data. A final never waits for a lower rank's call in any process: it may
 * burst and takes the last slots of a window; first cards may burst too but leave finals 0.5 % of
 * each window (at least 1 slot); paced updates leave 1 % (structural) and 2 % (progress), at least
 * 2 slots, so that when processes keep a route saturated its window still has slots the higher ranks
 * alone may take. The cost: a route saturated by updates alone carries 98–99 % of a large window's
 * limit (Feishu's 1 000/min), 18 of a small one's 20 (DingTalk's 20/s).
 *
 * First cards leave finals part of each long window (a minute or more): when more runs start together
 * than a minute's limit allows (Feishu: 1 000 creates a minute per app), a burst of first cards would
 * spend the whole minute, and a run that ends before its card was sent needs a create for its final.
 * A first card leaves one slot of each long window for every other card of its process still waiting
 * to send on its route (`SlotRequest.unsentCards`): each needs one new message, its first card or its
 * final, so the runs that end get their finals at once and the runs still going wait for the window
 * to slide. That reserve is at most half the window, so first cards never starve (uncapped, 300 long
 * runs on a route of 100 creates a minute got one first card a minute), and at least a twentieth
 * (finals of other processes, which this one does not count). Bench, Feishu 14 000 runs over 10 apps:
 * final p99 18 → 4.5 s (floor 0); at 10 000 first card p99 stays 56 s against a floor of 9.4 s, since
 * every waiting card is counted as if its run might end before the window slides. Paced ranks keep their
 * 1–2 % of long windows: on a key that sends and updates share with a long window (a Telegram
 * group's 20 a minute: 2 slots for every rank), updates may take slots the first cards leave.
 */
export const SLOT_RANK_POLICY: Readonly<Record<SlotRank, SlotRankPolicy>> = {
  final: { burst: true, keepFreeShare: 0, minKeepFree: 0 },
  'first-card': { burst: true, keepFreeShare: 0.005, minKeepFree: 1, longWindowKeepFreeShare: 0.05, unsentKeepFreeMaxShare: 0.5 },
  structural: { burst: false, keepFreeShare: 0.01, minKeepFree: 2 },
  progress: { burst: false, keepFreeShare: 0.02, minKeepFree: 2 },
};

/** The rank of a reservation that names none. */
export const DEFAULT_SLOT_RANK: SlotRank = 'structural';

/**
 * Windows smaller than this are one card's or one chat's own (Feishu's 5/s per message or chat):
 * no slots are kept free in them, every rank may fill them.
 */
const SHARED_WINDOW_MIN_LIMIT = 10;

/**
 * Calls of `rank` a window of `limit` calls per `intervalMs` (default: not long) may hold (at least 1).
 * `unsentCards` (see `SlotRequest.unsentCards`): in a long window a rank with a
 * {@link SlotRankPolicy.longWindowKeepFreeShare} (first cards) also leaves one slot for each of them,
 * up to {@link SlotRankPolicy.unsentKeepFreeMaxShare} of the window.
 */
export function rankLimit(limit: number, rank: SlotRank, intervalMs = 0, unsentCards = 0): number {
  if (limit < SHARED_WINDOW_MIN_LIMIT) return limit;
  const policy = SLOT_RANK_POLICY[rank];
  const long = intervalMs >= LONG_WINDOW_MIN_MS && policy.longWindowKeepFreeShare !== undefined;
  const share = long ? Math.max(policy.keepFreeShare, policy.longWindowKeepFreeShare ?? 0) : policy.keepFreeShare;
  const forUnsent = long ? Math.min(Math.floor(unsentCards), Math.floor(limit * (policy.unsentKeepFreeMaxShare ?? 1))) : 0;
  const keepFree = Math.max(policy.minKeepFree, Math.floor(limit * share), forUnsent);
  return Math.max(1, limit - keepFree);
}

/**
 * Share of its fastest window's spacing that a bursting rank keeps between two arrivals of a key:
 * half, so that where the key's windows all pace alike (one window, e.g. DingTalk's 20/s) a final
 * still comes before the next paced update of any process, while every window is checked call by call.
 */
export const BURST_SPACING_SHARE = 0.5;

/**
 * Least ms between two arrivals of a bursting rank under these windows (each widened to `spanMs`
 * plus `latencyMarginMs`): {@link BURST_SPACING_SHARE} of the fastest window's spacing (Feishu
 * 50/s → 10.2 ms, more with the latency margin); every window's count is checked besides.
 */
export function burstSpacingMs(windows: readonly { readonly limit: number; readonly spanMs: number }[], latencyMarginMs: number): number {
  let spacing = Number.POSITIVE_INFINITY;
  for (const window of windows) spacing = Math.min(spacing, (window.spanMs + latencyMarginMs) / window.limit);
  return spacing * BURST_SPACING_SHARE;
}
