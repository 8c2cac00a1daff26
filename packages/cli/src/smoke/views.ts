import type { CardView } from '@progresscard/core';
import { viewAfterEvents } from '@progresscard/core/testing';
import type { SmokeScenario } from './scenarios.js';

/** The card of `scenario` once it ended, at the fixed script time 0 (so renders are byte-stable). */
export function finalView(scenario: SmokeScenario): CardView {
  return viewAfterEvents([...scenario.events, scenario.end], { locale: 'en' });
}

/** The card of `scenario` while running, at its `runningAtMs` (undefined when it has none). */
export function runningView(scenario: SmokeScenario): CardView | undefined {
  if (scenario.runningAtMs === undefined) return undefined;
  const at = scenario.runningAtMs;
  return viewAfterEvents(scenario.events.filter((event) => (event.at ?? 0) <= at), { locale: 'en', lookAtMs: at });
}
