/**
 * Issuing a token pair for a session: a short-lived signed access token and an opaque refresh
 * token `<session id>.<secret>` whose SHA-256 alone is stored.
 */
import { newId, randomToken, sha256Hex } from '../shared/ids.js';
import type { Clock, TokenService } from '../shared/security.js';
import type { SessionStore } from './session-store.js';

/** Lifetime of an access token: 15 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 900;
/** Lifetime of a refresh token: 30 days, renewed by each refresh. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** What a login or a refresh hands out. */
export interface TokenPair {
  readonly accessToken: string;
  readonly tokenType: 'Bearer';
  readonly expiresIn: number;
  readonly refreshToken: string;
  readonly refreshExpiresIn: number;
}

export interface IssuedPair {
  readonly pair: TokenPair;
  readonly refreshTokenHash: string;
}

export async function issuePair(tokens: TokenService, customerId: string, sessionId: string): Promise<IssuedPair> {
  const refreshToken = `${sessionId}.${randomToken(43)}`;
  const [accessToken, refreshTokenHash] = await Promise.all([
    tokens.issue({ sub: customerId, sid: sessionId }, ACCESS_TOKEN_TTL_SECONDS),
    sha256Hex(refreshToken),
  ]);
  return {
    pair: {
      accessToken,
      tokenType: 'Bearer',
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      refreshToken,
      refreshExpiresIn: REFRESH_TOKEN_TTL_SECONDS,
    },
    refreshTokenHash,
  };
}

/** The session id of a refresh token, or null when it has not the expected shape. */
export function sessionIdOf(refreshToken: string): string | null {
  const match = /^(ses_[0-9a-z]{20})\.[0-9a-z]{43}$/.exec(refreshToken);
  return match === null ? null : match[1]!;
}

/** What opening a session needs. */
export interface SessionOpener {
  readonly tokens: TokenService;
  readonly sessions: SessionStore;
  readonly clock: Clock;
}

/** A new session for the customer (a login, a sign-up) and its token pair. */
export async function openSession(deps: SessionOpener, customerId: string): Promise<TokenPair> {
  const now = deps.clock.now();
  const sessionId = newId('ses');
  const issued = await issuePair(deps.tokens, customerId, sessionId);
  await deps.sessions.create({
    sessionId,
    customerId,
    refreshTokenHash: issued.refreshTokenHash,
    previousTokenHashes: [],
    createdAt: now,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    revokedAt: null,
  });
  return issued.pair;
}
