import { createProgressCards, silentLogger, type FinalDelivery } from '@progresscard/core';
import type { AnyChannelDescriptor, AnyChannelPlugin, EmulatorCard } from '../channels/descriptor.js';
import { startEmulators } from '../channels/emulated.js';
import type { SmokeScenario } from './scenarios.js';

/** What one scenario on one channel delivered and whether a user would find it right. */
export interface SmokeOutcome {
  readonly scenario: string;
  readonly channel: string;
  readonly ok: boolean;
  /** Why it failed (empty when it passed). */
  readonly reasons: readonly string[];
  /** Payloads as the platform holds them (emulator) or as sent (`--send`): main card first, then continuations. */
  readonly payloads: readonly unknown[];
  /** The running card's payload, for scenarios looked at while running. */
  readonly running?: unknown;
  /** The cards as HTML for the preview page (emulator runs only). */
  readonly html: readonly string[];
}

/** Where a scenario runs: a fresh emulator of the channel, or the real platform's plugin. */
export type SmokeTarget = { readonly kind: 'emulator' } | { readonly kind: 'real'; readonly plugin: () => AnyChannelPlugin };

const count = (text: string, marker: string) => text.split(marker).length - 1;

/**
 * Plays `scenario` on one channel in wall time, fast: events carry their script times (shifted so
 * the run ended just now), so durations and elapsed times read as scripted. Then checks what a
 * user sees: every `expect` marker on the cards, `once` markers exactly once on the main card,
 * no `absent` marker, and the final delivered.
 */
export async function runSmokeScenario(descriptor: AnyChannelDescriptor, scenario: SmokeScenario, target: SmokeTarget): Promise<SmokeOutcome> {
  const emulators = target.kind === 'emulator' ? await startEmulators([descriptor.id as never]) : undefined;
  const channel = emulators?.channels[0];
  const plugin = channel ? channel.plugin({ tickMs: 500, timeZone: 'UTC', switchEnv: {} }) : (target as Extract<SmokeTarget, { kind: 'real' }>).plugin();
  const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
  const reasons: string[] = [];
  try {
    const card = cards.open(plugin.id);
    const lookAt = scenario.runningAtMs ?? scenario.end.at ?? 0;
    const t0 = Date.now() - lookAt;
    const push = (event: SmokeScenario['events'][number]) => card.push({ ...event, at: t0 + (event.at ?? 0) });
    let running: unknown;
    const before = scenario.events.filter((e) => scenario.runningAtMs === undefined || (e.at ?? 0) <= scenario.runningAtMs);
    before.forEach(push);
    if (scenario.runningAtMs !== undefined) {
      await cards.idle();
      running = plugin.renderer.render(card.view());
      if (emulators && channel) running = latestPayloads(descriptor, emulators.emulator(descriptor)!)[0] ?? running;
      scenario.events.filter((e) => !before.includes(e)).forEach(push);
    }
    push(scenario.end);
    const final: FinalDelivery = await card.finalDelivery;
    await cards.idle();
    if (emulators) await descriptor.preview.settled?.(emulators.emulator(descriptor)!);
    if (!final.ok) reasons.push(`final not delivered: ${final.error ?? 'unknown error'}`);
    const view = card.view();
    const payloads = emulators
      ? latestPayloads(descriptor, emulators.emulator(descriptor)!)
      : [plugin.renderer.render(view), ...(plugin.renderer.renderContinuations?.(view) ?? [])];
    const html = emulators ? descriptor.preview.cards(emulators.emulator(descriptor)!).map((c: EmulatorCard) => c.render()) : [];
    const texts = payloads.map((p) => descriptor.doctor.texts(p));
    const all = texts.join('\n');
    for (const marker of scenario.expect) if (!all.includes(marker)) reasons.push(`missing "${marker}"`);
    for (const marker of scenario.once ?? []) {
      const n = count(texts[0] ?? '', marker);
      if (n !== 1) reasons.push(`"${marker}" shows ${n} times on the main card, not once`);
    }
    for (const marker of scenario.absent ?? []) if (all.includes(marker)) reasons.push(`shows "${marker}"`);
    if (running !== undefined) {
      const text = descriptor.doctor.texts(running);
      for (const marker of scenario.expectRunning ?? []) if (!text.includes(marker)) reasons.push(`running card misses "${marker}"`);
    }
    return { scenario: scenario.id, channel: descriptor.id, ok: reasons.length === 0, reasons, payloads, ...(running === undefined ? {} : { running }), html };
  } catch (error) {
    reasons.push(`error: ${error instanceof Error ? error.message : String(error)}`);
    return { scenario: scenario.id, channel: descriptor.id, ok: false, reasons, payloads: [], html: [] };
  } finally {
    await cards.shutdown('smoke finished');
    await emulators?.close();
  }
}

/** Every card the emulator holds (this scenario's alone: each scenario gets a fresh one), oldest first. */
function latestPayloads(descriptor: AnyChannelDescriptor, emulator: unknown): unknown[] {
  return descriptor.preview.cards(emulator).map((c: EmulatorCard) => descriptor.preview.finalPayload(emulator, c.id));
}
