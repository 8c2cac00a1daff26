import type { EventOf } from '../events/contract.js';
import { CostMeter, type PriceTable } from './cost.js';

/**
 * What the run's model calls used, for the card's footer: the model, tokens in and out (summed
 * over `usage` events), the context filled (the latest figure) and the cost.
 */
export class UsageTally {
  private currentModel: string | undefined;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  private contextTokens: number | undefined;
  private contextWindow: number | undefined;
  private readonly cost: CostMeter;

  constructor(prices: PriceTable | undefined) {
    this.cost = new CostMeter(prices);
  }

  /** The model the run uses, as `run.started` or the latest `usage` names it. */
  get model(): string | undefined {
    return this.currentModel;
  }

  /** A named model replaces the current one; `undefined` keeps it. */
  setModel(model: string | undefined): void {
    if (model !== undefined) this.currentModel = model;
  }

  /** One `usage` event: tokens added up, the context figures replaced, the call priced at its model. */
  add(event: EventOf<'usage'>): void {
    if (event.inputTokens !== undefined) this.inputTokens = (this.inputTokens ?? 0) + event.inputTokens;
    if (event.outputTokens !== undefined) this.outputTokens = (this.outputTokens ?? 0) + event.outputTokens;
    if (event.contextTokens !== undefined) this.contextTokens = event.contextTokens;
    if (event.contextWindow !== undefined) this.contextWindow = event.contextWindow;
    this.setModel(event.model);
    this.cost.add(event.model ?? this.currentModel, event.inputTokens, event.outputTokens, event.totalCostUsd);
  }

  /** The footer's usage fields, in the footer's order; `contextPercent` is rounded to a whole percent. */
  footer(): {
    readonly model: string | undefined;
    readonly inputTokens: number | undefined;
    readonly outputTokens: number | undefined;
    readonly contextTokens: number | undefined;
    readonly contextWindow: number | undefined;
    readonly contextPercent: number | undefined;
    readonly costUsd: number | undefined;
  } {
    const contextPercent = this.contextTokens !== undefined && this.contextWindow
      ? Math.round((this.contextTokens / this.contextWindow) * 100)
      : undefined;
    return {
      model: this.currentModel,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      contextTokens: this.contextTokens,
      contextWindow: this.contextWindow,
      contextPercent,
      costUsd: this.cost.totalUsd,
    };
  }
}
