import { hash } from 'node:crypto';

/**
 * SHA-256 as lower-case hex, synchronously: the same digest as the domain's Web Crypto default,
 * without its promise and thread-pool round trip. The one-shot `hash` makes no Hash object, which
 * is most of the cost on a text this short (docs/performance.md).
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
