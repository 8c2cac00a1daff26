/**
 * What the app-pool restart tests share (`app-pool-move`, `app-pool-identity`): "processes" that
 * are compositions over one in-memory card store on fake time, a first one killed mid-run, and a
 * second one on a changed set of apps resuming and finishing the run. Killing one clears every
 * timer it set.
 */
import { expect, vi } from 'vitest';
import { appPool, createProgressCards, InMemoryBudgetStore, InMemoryCardStore, type FinalDelivery, type MemoryChannel, type ProgressCard, type ProgressCards, type ProgressCardsStore } from '../../src/index.js';
import { recordingLogger } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

/** How long a card's lease lasts, ms: a resume waits this long for the dead process's lease. */
export const LEASE_MS = 3000;
/** How long a card may sit unleased before the sweep ends it as interrupted, ms. */
export const GRACE_MS = 10_000;

/** The composition options every "process" here uses, over `store`. */
export const processOptions = (store: ProgressCardsStore, logger = recordingLogger()) => ({ store, logger, env: {}, leaseTtlMs: LEASE_MS, orphanGraceMs: GRACE_MS });

/** A card store and budget store the "processes" share, on fake time from 1 700 000 000 000. */
export function sharedStore(): ProgressCardsStore {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  return { budgets: new InMemoryBudgetStore(), cards: new InMemoryCardStore() };
}

/** Kills the running "process": every timer it set is gone, the clock stays where it was. */
function killProcess(): void {
  const now = Date.now();
  vi.clearAllTimers();
  vi.setSystemTime(now);
}

/** A chat (of `oc_0` … `oc_49`, but none of `except`) that the pool of `apps` gives to the app registered as `appId` (`memory-app2`). */
export function chatOfApp(apps: readonly MemoryChannel[], appId: string, except: readonly string[] = []): string {
  const pool = appPool(apps);
  const chat = Array.from({ length: 50 }, (_, i) => `oc_${i}`).find((each) => !except.includes(each) && pool.rank(each)[0]!.id === appId);
  if (!chat) throw new Error(`no chat of the fifty goes to ${appId}`);
  return chat;
}

/** A first process on `channels` opens run-1 (titled Deploy) in `chat`, runs a tool, and dies. Returns the card's message. */
export async function killedMidRun(store: ProgressCardsStore, channels: Parameters<typeof createProgressCards>[0]['channels'], chat = 'oc_1'): Promise<NonNullable<ProgressCard['message']>> {
  const first = createProgressCards({ channels, ...processOptions(store) });
  const card = first.open('memory', chat, { runId: 'run-1', locale: 'en', title: 'Deploy' });
  card.toolStarted('c1', 'shell', { command: 'make' });
  await settle(2000);
  const message = card.message!;
  expect(message).toBeDefined();
  killProcess();
  return message;
}

/** `second` resumes run-1 (after the dead process's lease ran out), finishes its tool and completes it with `Deployed.`; resolves its final. */
export async function resumedAndCompleted(second: ProgressCards, settleMs = 5000): Promise<FinalDelivery> {
  const resuming = second.resume('run-1');
  await settle(LEASE_MS + 100);
  const card = await resuming;
  card.toolFinished('c1', 'built');
  card.complete('Deployed.');
  await settle(settleMs);
  return card.finalDelivery;
}
