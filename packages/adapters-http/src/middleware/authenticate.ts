/**
 * Reads `Authorization: Bearer <token>`. No header: anonymous. A header that does not hold a live
 * token is remembered (`authError`) and refused by the admission middleware after rate limiting
 * (on every endpoint, public ones included), so a client learns at once that its token is bad and
 * bad tokens still spend the caller's quota.
 */
import type { Authenticate } from '@storefront/domain';
import { DomainError, isDomainError } from '@storefront/domain';
import type { RequestState } from '../state.js';

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{1,4096})$/i;

export async function identifyCaller(state: RequestState, header: string, authenticate: Authenticate): Promise<void> {
  const match = BEARER.exec(header.trim());
  try {
    if (match === null) throw new DomainError('invalid_token', 'Send the access token as "Authorization: Bearer <token>".');
    state.caller = await authenticate.execute(match[1]!);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    state.authError = error;
  }
}
