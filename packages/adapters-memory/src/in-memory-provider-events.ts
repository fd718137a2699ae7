/** Processed provider events in process memory: one map, each call synchronous, so claims never interleave. */
import { PROVIDER_EVENT_LEASE_MS, type ProviderEvents } from '@storefront/domain/adapter-kit';

interface EventRow {
  leaseUntil: number;
  completedAt: number | null;
}

export class InMemoryProviderEvents implements ProviderEvents {
  private readonly rows = new Map<string, EventRow>();

  claim(provider: string, eventId: string, receivedAt: Date): Promise<boolean> {
    const key = keyOf(provider, eventId);
    const row = this.rows.get(key);
    const at = receivedAt.getTime();
    if (row !== undefined && (row.completedAt !== null || row.leaseUntil > at)) return Promise.resolve(false);
    this.rows.set(key, { leaseUntil: at + PROVIDER_EVENT_LEASE_MS, completedAt: null });
    return Promise.resolve(true);
  }

  complete(provider: string, eventId: string, completedAt: Date): Promise<void> {
    const key = keyOf(provider, eventId);
    const row = this.rows.get(key);
    const at = completedAt.getTime();
    // Completed already: the first completion stands. Released or removed meanwhile: recorded done.
    if (row === undefined) this.rows.set(key, { leaseUntil: at, completedAt: at });
    else if (row.completedAt === null) row.completedAt = at;
    return Promise.resolve();
  }

  release(provider: string, eventId: string): Promise<void> {
    const key = keyOf(provider, eventId);
    if (this.rows.get(key)?.completedAt === null) this.rows.delete(key);
    return Promise.resolve();
  }

  isCompleted(provider: string, eventId: string): Promise<boolean> {
    const completedAt = this.rows.get(keyOf(provider, eventId))?.completedAt;
    return Promise.resolve(completedAt !== undefined && completedAt !== null);
  }

  removeBefore(before: Date, limit: number): Promise<number> {
    const old = [...this.rows]
      .filter(([, row]) => row.completedAt !== null && row.completedAt < before.getTime())
      .sort(([, a], [, b]) => a.completedAt! - b.completedAt!)
      .slice(0, Math.max(0, Math.floor(limit)));
    for (const [key] of old) this.rows.delete(key);
    return Promise.resolve(old.length);
  }
}

const keyOf = (provider: string, eventId: string): string => `${provider}\u0000${eventId}`;
