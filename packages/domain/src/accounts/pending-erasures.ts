/**
 * Port: the accounts whose erasure was requested and is not finished, kept on the account records
 * themselves (CustomerRepository's finders skip a marked account, and its `delete` ends the mark).
 */
export interface PendingErasures {
  /**
   * Records durably that the account is being erased, the erasure's first step: from then on it
   * reads as gone, and `list` finds it until it is deleted. A second mark keeps the first time.
   * Returns false when there is no such account.
   */
  mark(customerId: string, at: Date): Promise<boolean>;
  /** Accounts marked for erasure and not yet deleted: at most `limit` ids, the oldest mark first. */
  list(limit: number): Promise<string[]>;
}
