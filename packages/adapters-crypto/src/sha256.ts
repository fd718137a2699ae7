import { hash } from 'node:crypto';

/**
 * SHA-256 as lower-case hex, synchronously: the same digest as the domain's Web Crypto default,
 * without its promise and thread-pool round trip (a sixth of a memory placement's CPU). The one-shot
 * `hash` costs a third of `createHash(...).update(...).digest(...)` on so short a text (no Hash
 * object; docs/performance.md).
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
