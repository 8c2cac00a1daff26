/**
 * The open cards of one app pool in this process: how many cards and chats each app carries, and
 * which apps each chat has open cards on, so a chat's next card stays on its app and a new chat goes where the load is
 * least (see `AppPoolOptions.spread`). Entries live while their cards are open: a chat whose cards all
 * closed is forgotten, so memory follows the open cards, not every chat ever seen.
 */
export class AppLoads {
  private readonly cardsPerApp = new Map<string, number>();
  /** Chats with open cards per app. */
  private readonly chatsPerApp = new Map<string, number>();
  /** Per chat with open cards: open cards per app. */
  private readonly appsOfChat = new Map<string, Map<string, number>>();

  /** Open cards on `appId` (0 when none). */
  cards(appId: string): number {
    return this.cardsPerApp.get(appId) ?? 0;
  }

  /** Chats with open cards on `appId` (0 when none). */
  chats(appId: string): number {
    return this.chatsPerApp.get(appId) ?? 0;
  }

  /** The apps `chat` has open cards on, most cards first. */
  appsOf(chat: string): readonly string[] {
    const apps = this.appsOfChat.get(chat);
    if (!apps) return [];
    return [...apps.entries()].sort((a, b) => b[1] - a[1]).map(([appId]) => appId);
  }

  /**
   * Counts a card of `chat` opened on `appId`; the returned function uncounts it (once, whatever
   * calls it later).
   */
  opened(chat: string, appId: string): () => void {
    this.cardsPerApp.set(appId, this.cards(appId) + 1);
    let apps = this.appsOfChat.get(chat);
    if (!apps) {
      apps = new Map();
      this.appsOfChat.set(chat, apps);
    }
    const before = apps.get(appId) ?? 0;
    apps.set(appId, before + 1);
    if (before === 0) this.chatsPerApp.set(appId, this.chats(appId) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.cardsPerApp.set(appId, this.cards(appId) - 1);
      const left = (apps.get(appId) ?? 1) - 1;
      if (left > 0) apps.set(appId, left);
      else {
        apps.delete(appId);
        this.chatsPerApp.set(appId, this.chats(appId) - 1);
      }
      if (apps.size === 0 && this.appsOfChat.get(chat) === apps) this.appsOfChat.delete(chat);
    };
  }
}
