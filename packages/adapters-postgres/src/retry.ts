/**
 * A statement that lost a deadlock or a serialisation check did nothing (PostgreSQL rolled it
 * back), so running it again is safe; a few attempts, then the error stands (database_unavailable).
 */
const RETRIED = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

export async function retryOnConflict<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRIED.has(code)) throw error;
    }
  }
}
