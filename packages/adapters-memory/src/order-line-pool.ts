/**
 * Orders repeat the same lines, so each distinct line, and the one-line item list made of it, is
 * stored once and shared, frozen so that no reader changes another order through it. The pool is
 * bounded (past `maxLines`, lines are stored unshared). Lines without options share one frozen
 * empty list; a line with options is pooled by its options too.
 */
import type { OrderLine } from '@storefront/domain';
import type { OrderLineOption } from '@storefront/domain/adapter-kit';

const NO_OPTIONS: readonly OrderLineOption[] = Object.freeze([]);

export class OrderLinePool {
  private readonly lines = new Map<string, OrderLine>();
  /** One-line item lists, keyed by a line of `lines`. */
  private readonly singleLineItems = new Map<OrderLine, readonly OrderLine[]>();

  constructor(private readonly maxLines = 10_000) {}

  /** Frozen items equal to `items`, shared with earlier orders where possible. */
  items(items: readonly OrderLine[]): readonly OrderLine[] {
    if (items.length === 1) return this.singleLine(items[0]!);
    return Object.freeze(items.map((line) => this.shared(line) ?? freezeLine(line)));
  }

  private singleLine(line: OrderLine): readonly OrderLine[] {
    const shared = this.shared(line);
    if (shared === undefined) return Object.freeze([freezeLine(line)]);
    let items = this.singleLineItems.get(shared);
    if (items === undefined) {
      items = Object.freeze([shared]);
      this.singleLineItems.set(shared, items);
    }
    return items;
  }

  /** The pooled copy of `line`, or undefined when it is new and the pool is full. */
  private shared(line: OrderLine): OrderLine | undefined {
    const key = JSON.stringify(
      line.options.length === 0
        ? [line.productId, line.name, line.quantity, line.unitPrice, line.lineTotal, line.taxRate]
        : [line.productId, line.name, line.quantity, line.unitPrice, line.lineTotal, line.taxRate, line.options.map((o) => [o.optionId, o.name, o.priceDelta])],
    );
    let shared = this.lines.get(key);
    if (shared === undefined && this.lines.size < this.maxLines) {
      shared = freezeLine(line);
      this.lines.set(key, shared);
    }
    return shared;
  }
}

function freezeLine(line: OrderLine): OrderLine {
  return Object.freeze({
    productId: line.productId,
    name: line.name,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    lineTotal: line.lineTotal,
    options: line.options.length === 0 ? NO_OPTIONS : Object.freeze(line.options.map(freezeOption)),
    taxRate: line.taxRate,
  });
}

function freezeOption(option: OrderLineOption): OrderLineOption {
  return Object.freeze({ optionId: option.optionId, name: option.name, priceDelta: option.priceDelta });
}
