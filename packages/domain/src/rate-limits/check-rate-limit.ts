import type { RateLimiter, RateLimitPolicy } from './rate-limiter.js';
import { keyOf, RateLimitedError, toStatus, type RateLimitStatus, type RateLimitSubject } from './rate-limits.js';

/** Counts one request against the subject's quota; refused requests are not counted. */
export class CheckRateLimit {
  constructor(
    private readonly limiter: RateLimiter,
    readonly policy: RateLimitPolicy,
  ) {}

  /** Resolves the status after counting, or rejects with `rate_limited` carrying that status. */
  async execute(subject: RateLimitSubject): Promise<RateLimitStatus> {
    const decision = await this.limiter.consume(keyOf(subject), this.policy);
    const status = toStatus(decision, this.policy, subject.scope);
    if (!decision.allowed) throw new RateLimitedError(status);
    return status;
  }
}
