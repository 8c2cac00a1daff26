import type { CardView } from '@progresscard/core/plugin';
import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';

/** Epoch ms used as the start of every scripted view (2026-01-01T00:00:00Z). */
const T0 = Date.UTC(2026, 0, 1);

/**
 * The view after `events` (each with `at` = ms after T0), looked at `nowOffset` ms after T0.
 * Buffered text is released after every event, as the card would after its debounce.
 */
export function viewOf(events: readonly Record<string, unknown>[], nowOffset: number): CardView {
  return viewAfterEvents(events as readonly ScriptedEvent[], { startAt: T0, lookAtMs: nowOffset, releaseTextAfterEach: true });
}

/** Five GFM tables of 6 rows, then 40000 characters of prose with a code fence still open at character 25000 (case F05). */
export function f05Answer(): string {
  const tables = Array.from({ length: 5 }, (_, t) => {
    const rows = Array.from({ length: 6 }, (_, r) => `| t${t} r${r} | ${r * t} | <at id=all> cell |`);
    return [`| table ${t} | value | note |`, '| --- | ---: | :-- |', ...rows].join('\n');
  }).join('\n\n');
  const sentence = 'The parser keeps every token in order and reports the line of each error. ';
  let prose = '';
  let line = 0;
  while (prose.length < 25_000) prose += `${sentence}${++line % 4 === 0 ? '\n\n' : ''}`;
  prose = prose.slice(0, 25_000);
  prose += '\n```ts\n';
  while (prose.length < 40_000) prose += `const step${++line} = parse(tokens, ${line}); // <font color='red'>x</font>\n`;
  prose = prose.slice(0, 40_000);
  return `${tables}\n\n${prose}END-OF-ANSWER`;
}
