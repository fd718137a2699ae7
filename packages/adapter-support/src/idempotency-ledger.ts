/**
 * Stripe's idempotency semantics, for the stand-ins that imitate it: the first answer under a key
 * is kept and given again to the same request; the same key with another request is refused
 * (Stripe's 400 `idempotency_error`). A request that failed before it began (a bad parameter, an
 * unknown object) keeps nothing, as Stripe's does not.
 */
export class IdempotencyConflict extends Error {
  constructor(readonly key: string) {
    super('Keys for idempotent requests can only be used with the same parameters they were first used with.');
    this.name = 'IdempotencyConflict';
  }
}

export class IdempotencyLedger<T> {
  private readonly answers = new Map<string, { readonly request: string; readonly answer: T }>();

  /** `request`: a canonical text of what was asked (endpoint and parameters). */
  run(key: string, request: string, work: () => T): T {
    const kept = this.answers.get(key);
    if (kept !== undefined) {
      if (kept.request !== request) throw new IdempotencyConflict(key);
      return kept.answer;
    }
    const answer = work();
    this.answers.set(key, { request, answer });
    return answer;
  }
}
