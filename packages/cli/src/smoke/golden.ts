import type { AnyChannelDescriptor } from '../channels/descriptor.js';
import type { SmokeScenario } from './scenarios.js';
import { finalView, runningView } from './views.js';

/**
 * The golden payloads of a scenario on a channel: what its renderer makes of the scenario's final
 * card (and continuations, and the running card when the scenario has one), rendered without any
 * platform or clock (script time 0 = 2026-01-01T08:00:00Z, footer in UTC, no switch variables), so
 * they are byte-stable. Kept in the repo (`packages/cli/test/fixtures/golden`), a renderer change
 * shows up as a diff; `npm run smoke:golden` writes them again.
 */
export interface GoldenPayloads {
  readonly final: unknown;
  readonly continuations: readonly unknown[];
  readonly running?: unknown;
}

/** Renders {@link GoldenPayloads} with the channel's plugin at its defaults. */
export function goldenPayloads(descriptor: AnyChannelDescriptor, scenario: SmokeScenario): GoldenPayloads {
  // The renderer needs no server: the plugin is pointed at an address nothing is sent to.
  const plugin = descriptor.emulated.plugin({ baseUrl: 'http://127.0.0.1:9' }, { timeZone: 'UTC', switchEnv: {} });
  const view = finalView(scenario);
  const running = runningView(scenario);
  return {
    final: plugin.renderer.render(view),
    continuations: plugin.renderer.renderContinuations?.(view) ?? [],
    ...(running ? { running: plugin.renderer.render(running) } : {}),
  };
}
