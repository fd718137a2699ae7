import type { Clock } from '../shared/security.js';
import type { SessionStore } from './session-store.js';
import type { Caller } from './authenticate.js';

/** Revokes the caller's session: its access and refresh tokens stop working at once. */
export class Logout {
  constructor(
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller): Promise<void> {
    await this.sessions.revoke(caller.claims.sid, this.clock.now());
  }
}
