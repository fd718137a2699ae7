export class OrderLinePool {
    maxLines;
    lines = new Map();
    /** One-line item lists, keyed by a line of `lines`. */
    singleLineItems = new Map();
    constructor(maxLines = 10_000) {
        this.maxLines = maxLines;
    }
    /** Frozen items equal to `items`, shared with earlier orders where possible. */
    items(items) {
        if (items.length === 1)
            return this.singleLine(items[0]);
        return Object.freeze(items.map((line) => this.shared(line) ?? freezeLine(line)));
    }
    singleLine(line) {
        const shared = this.shared(line);
        if (shared === undefined)
            return Object.freeze([freezeLine(line)]);
        let items = this.singleLineItems.get(shared);
        if (items === undefined) {
            items = Object.freeze([shared]);
            this.singleLineItems.set(shared, items);
        }
        return items;
    }
    /** The pooled copy of `line`, or undefined when it is new and the pool is full. */
    shared(line) {
        const key = JSON.stringify([line.productId, line.name, line.quantity, line.unitPrice, line.lineTotal]);
        let shared = this.lines.get(key);
        if (shared === undefined && this.lines.size < this.maxLines) {
            shared = freezeLine(line);
            this.lines.set(key, shared);
        }
        return shared;
    }
}
function freezeLine(line) {
    return Object.freeze({
        productId: line.productId,
        name: line.name,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        lineTotal: line.lineTotal,
    });
}
