import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goldenFile, goldenText, renderAllGolden } from './golden.js';

describe('golden smoke payloads', () => {
  // A renderer change shows up here as a diff; if it is intended, run `npm run smoke:golden` and commit the fixtures.
  for (const { channel, scenario, payloads } of renderAllGolden()) {
    it(`${channel} ${scenario} renders as committed`, () => {
      const file = goldenFile(channel, scenario);
      expect(existsSync(file), `${file} is missing: run npm run smoke:golden`).toBe(true);
      expect(goldenText(payloads)).toBe(readFileSync(file, 'utf8'));
    });
  }
});
