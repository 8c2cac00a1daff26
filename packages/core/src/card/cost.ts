/**
 * The price of one model, in US dollars per million tokens, as the product's price table gives it
 * (e.g. `{ inputUsdPerMillion: 3, outputUsdPerMillion: 15 }`).
 */
export interface ModelPrice {
  readonly inputUsdPerMillion: number;
  readonly outputUsdPerMillion: number;
}

/** A price table keyed by model name as the usage events name it (e.g. `claude-sonnet-4-5`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Adds up the cost of a run's model calls with a price table. Once a call's model has no price,
 * the total is unknown (`undefined`): a card shows no cost rather than a too-low one.
 */
export class CostMeter {
  private priced: number | undefined = 0;
  private reported: number | undefined;

  constructor(private readonly prices: PriceTable | undefined) {}

  /** One usage event: its tokens priced at `model`'s price, and the source's own total when it has one. */
  add(model: string | undefined, inputTokens: number | undefined, outputTokens: number | undefined, totalCostUsd: number | undefined): void {
    if (totalCostUsd !== undefined) this.reported = totalCostUsd;
    if (this.priced === undefined || (inputTokens === undefined && outputTokens === undefined)) return;
    const price = model === undefined ? undefined : this.prices?.[model];
    if (!price) {
      this.priced = undefined;
      return;
    }
    this.priced += ((inputTokens ?? 0) * price.inputUsdPerMillion + (outputTokens ?? 0) * price.outputUsdPerMillion) / 1_000_000;
  }

  /** The source's reported total when there is one, else the priced total; `undefined` when unknown. */
  get totalUsd(): number | undefined {
    if (this.reported !== undefined) return this.reported;
    return this.prices && this.priced !== undefined && this.priced > 0 ? this.priced : undefined;
  }
}

/**
 * Checks a price table, naming the model and field of a bad entry.
 * @throws Error when a price is not a finite number ≥ 0.
 */
export function checkPriceTable(prices: PriceTable): void {
  for (const [model, price] of Object.entries(prices)) {
    for (const field of ['inputUsdPerMillion', 'outputUsdPerMillion'] as const) {
      const value: unknown = price?.[field];
      if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
        throw new Error(`prices[${JSON.stringify(model)}].${field} = ${JSON.stringify(value)}: must be a number ≥ 0 (US dollars per million tokens)`);
      }
    }
  }
}
