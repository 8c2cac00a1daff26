/**
 * The open cards of one app pool in this process: how many each app carries, and which apps each chat
 * has open cards on, so a chat's next card stays on its app and a new chat goes where the load is
 * least (see `AppPoolOptions.spread`). Entries live while their cards are open: a chat whose cards all
 * closed is forgotten, so memory follows the open cards, not every chat ever seen.
 */
export class AppLoads {
  private readonly cardsPerApp = new Map<string, number>();
  /** Per chat with open cards: open cards per app. */
  private readonly chats = new Map<string, Map<string, number>>();

  /** Open cards on `appId` (0 when none). */
  cards(appId: string): number {
    return this.cardsPerApp.get(appId) ?? 0;
  }

  /** The apps `chat` has open cards on, most cards first. */
  appsOf(chat: string): readonly string[] {
    const apps = this.chats.get(chat);
    if (!apps) return [];
    return [...apps.entries()].sort((a, b) => b[1] - a[1]).map(([appId]) => appId);
  }

  /**
   * Counts a card of `chat` opened on `appId`; the returned function uncounts it (once, whatever
   * calls it later).
   */
  opened(chat: string, appId: string): () => void {
    this.cardsPerApp.set(appId, this.cards(appId) + 1);
    let apps = this.chats.get(chat);
    if (!apps) {
      apps = new Map();
      this.chats.set(chat, apps);
    }
    apps.set(appId, (apps.get(appId) ?? 0) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.cardsPerApp.set(appId, this.cards(appId) - 1);
      const left = (apps.get(appId) ?? 1) - 1;
      if (left > 0) apps.set(appId, left);
      else apps.delete(appId);
      if (apps.size === 0 && this.chats.get(chat) === apps) this.chats.delete(chat);
    };
  }
}
