/** How the store taxes its orders: fixed by configuration, read by every placement. */
import type { TaxRate } from './tax-rate.js';

export interface TaxSettings {
  /** The rate of a product that names none (STOREFRONT_TAX_RATE). */
  readonly rate: TaxRate;
  /** Menu prices include the tax (EU, UK) or the tax is added on top (most of the US). */
  readonly pricesIncludeTax: boolean;
  /** The delivery fee's rate (STOREFRONT_DELIVERY_FEE_TAX_RATE; by default the store's rate). */
  readonly deliveryFeeRate: TaxRate;
}

/** No tax, added on top: what a store that configures nothing gets. */
export const NO_TAX: TaxSettings = { rate: 0 as TaxRate, pricesIncludeTax: false, deliveryFeeRate: 0 as TaxRate };

/** The rate a product's lines are taxed at: its own, else the store's. */
export function productTaxRate(product: { readonly taxRate?: TaxRate }, taxes: TaxSettings): TaxRate {
  return product.taxRate ?? taxes.rate;
}
