/**
 * The domain names a field in its own terms (`items.0.productId`, `idempotencyKey`); the wire
 * names it as the interface does (`items.0.product_id`, the `Idempotency-Key` header). Every
 * domain error's `details` pass through here on their way out.
 */
const HEADERS: Readonly<Record<string, string>> = { idempotencyKey: 'Idempotency-Key' };

export function wirePath(path: string): string {
  return HEADERS[path] ?? path.replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a}_${b.toLowerCase()}`);
}
