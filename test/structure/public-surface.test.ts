import { describe, expect, it } from 'vitest';
import * as core from '../../packages/core/src/index.js';
import * as store from '../../packages/core/src/store/index.js';

/**
 * The core's root entry point is for product authors (what the README's product sample and its
 * sections use); plugin authors, store implementers and tests have their own tiers
 * (`/plugin`, `/store`, `/testing`). A name added to the root should be one a product needs: the
 * root stays small enough to read in one sitting.
 */
const ROOT_RUNTIME_BUDGET = 50;

describe('the public surface of @progresscard/core', () => {
  it(`the root exports at most ${ROOT_RUNTIME_BUDGET} runtime names`, () => {
    const names = Object.keys(core);
    expect(names.length, `root runtime exports (${names.length}): ${names.sort().join(', ')}`).toBeLessThanOrEqual(ROOT_RUNTIME_BUDGET);
  });

  it('the numbers only a store implementation applies are in /store, not the root', () => {
    for (const name of ['SLOT_RANK_POLICY', 'DEFAULT_SLOT_RANK', 'BURST_SPACING_SHARE', 'rankLimit', 'pacingIntervalMs', 'budgetSafetyMarginMs']) {
      expect(Object.keys(core), name).not.toContain(name);
      expect(Object.keys(store), name).toContain(name);
    }
  });
});
