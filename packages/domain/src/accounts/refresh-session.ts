import { DomainError } from '../shared/errors.js';
import { sha256Hex } from '../shared/ids.js';
import { isSessionActive } from './session.js';
import { Issues } from '../shared/validation.js';
import type { CustomerRepository } from './customer-repository.js';
import type { Clock, TokenService } from '../shared/security.js';
import type { SessionStore } from './session-store.js';
import type { TokenPair } from './session-tokens.js';
import { issuePair, REFRESH_TOKEN_TTL_SECONDS, sessionIdOf } from './session-tokens.js';

export interface RefreshSessionDependencies {
  readonly customers: CustomerRepository;
  readonly sessions: SessionStore;
  readonly tokens: TokenService;
  readonly clock: Clock;
}

/**
 * Trades a refresh token for a new pair and rotates it. Presenting a token that was already
 * rotated means it leaked (or a client raced itself): the whole session is revoked (RFC 9700).
 */
export class RefreshSession {
  constructor(private readonly deps: RefreshSessionDependencies) {}

  async execute(input: { readonly refreshToken: unknown }): Promise<TokenPair> {
    const issues = new Issues();
    if (typeof input.refreshToken !== 'string' || input.refreshToken.length === 0 || input.refreshToken.length > 4096) {
      issues.add('refreshToken', 'is required: a string');
    }
    issues.throwIfAny();
    const token = input.refreshToken as string;
    const invalid = new DomainError('invalid_token', 'The refresh token is invalid, expired or revoked.');

    const sessionId = sessionIdOf(token);
    if (sessionId === null) throw invalid;
    const { sessions, clock } = this.deps;
    const session = await sessions.findById(sessionId);
    const now = clock.now();
    if (session === null || !isSessionActive(session, now)) throw invalid;

    const hash = await sha256Hex(token);
    if (hash !== session.refreshTokenHash) {
      if (session.previousTokenHashes.includes(hash)) await sessions.revoke(sessionId, now);
      throw invalid;
    }
    const customer = await this.deps.customers.findById(session.customerId);
    if (customer === null) throw invalid;
    if (customer.disabled) throw new DomainError('account_disabled', 'This account is disabled.');

    const issued = await issuePair(this.deps.tokens, customer.customerId, sessionId);
    const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
    if (!(await sessions.rotate(sessionId, hash, issued.refreshTokenHash, expiresAt))) {
      // Another request rotated the same token first: the token was used twice.
      await sessions.revoke(sessionId, now);
      throw invalid;
    }
    return issued.pair;
  }
}
