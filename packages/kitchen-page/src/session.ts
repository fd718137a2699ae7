/**
 * The signed-in kitchen: its tokens, in memory only (never in storage a script of another page could
 * read), and every call to the API with `Authorization: Bearer`. The access token is refreshed a
 * minute before it expires (POST /api/auth/refresh, which rotates the refresh token), and once more
 * when a call is answered 401 anyway (a sleeping laptop misses its timer). One refresh at a time:
 * presenting a rotated refresh token twice would revoke the session (DECISIONS "Authentication").
 */
export interface Tokens {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly expires_in: number;
}

/** An API error body: `{error, message}`. */
export interface Problem {
  readonly error: string;
  readonly message?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.message ?? problem.error);
  }
}

/** Refresh this long before the access token expires. */
const REFRESH_AHEAD_MS = 60_000;

export class Session {
  private tokens: Tokens;
  private refreshing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ended = false;

  private constructor(
    tokens: Tokens,
    /** Told once when the session cannot go on (refresh refused): the page signs in again. */
    private readonly lost: (reason: string) => void,
  ) {
    this.tokens = tokens;
    this.schedule();
  }

  /** POST /api/auth/login; an ApiError for wrong credentials (401) and the like. */
  static async signIn(email: string, password: string, lost: (reason: string) => void): Promise<Session> {
    const response = await fetch('/api/auth/login', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email, password }) });
    if (!response.ok) throw new ApiError(response.status, await problemOf(response));
    return new Session((await response.json()) as Tokens, lost);
  }

  get accessToken(): string {
    return this.tokens.access_token;
  }

  /** A call with the access token; on a 401, one refresh and one retry. Errors (4xx, 5xx) as ApiError. */
  async call<T>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const response = await this.fetch(path, init);
    if (!response.ok) throw new ApiError(response.status, await problemOf(response));
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  /** The raw response of a call with the access token, refreshed and retried once on a 401. */
  async fetch(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
    const send = (): Promise<Response> =>
      fetch(path, {
        method: init.method ?? 'GET',
        headers: { ...(init.body === undefined ? {} : JSON_HEADERS), ...init.headers, Authorization: `Bearer ${this.tokens.access_token}` },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      });
    const first = await send();
    if (first.status !== 401 || this.ended) return first;
    await this.refresh();
    return send();
  }

  /** A new token pair; the one refresh under way when there is one. */
  refresh(): Promise<void> {
    this.refreshing ??= this.rotate().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Signs out here and on the server (best effort: the tokens are forgotten either way). */
  async signOut(): Promise<void> {
    const token = this.tokens.access_token;
    this.end();
    await fetch('/api/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
  }

  private async rotate(): Promise<void> {
    if (this.ended) throw new ApiError(401, { error: 'signed_out', message: 'Signed out.' });
    let response: Response;
    try {
      response = await fetch('/api/auth/refresh', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ refresh_token: this.tokens.refresh_token }) });
    } catch (error) {
      // The service is out of reach: try again soon, the tokens stay.
      this.schedule(5_000);
      throw error;
    }
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      this.end();
      this.lost('Your session has ended: sign in again.');
      throw new ApiError(response.status, await problemOf(response));
    }
    if (!response.ok) {
      this.schedule(5_000);
      throw new ApiError(response.status, await problemOf(response));
    }
    this.tokens = (await response.json()) as Tokens;
    this.schedule();
  }

  private schedule(inMs = Math.max(5_000, this.tokens.expires_in * 1000 - REFRESH_AHEAD_MS)): void {
    clearTimeout(this.timer);
    if (this.ended) return;
    this.timer = setTimeout(() => void this.refresh().catch(() => undefined), inMs);
  }

  private end(): void {
    this.ended = true;
    clearTimeout(this.timer);
  }
}

const JSON_HEADERS: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };

async function problemOf(response: Response): Promise<Problem> {
  try {
    const body = (await response.json()) as Partial<Problem>;
    if (typeof body.error === 'string') return { error: body.error, ...(typeof body.message === 'string' ? { message: body.message } : {}) };
  } catch {
    // Not JSON (a proxy's page): described below.
  }
  return { error: 'http_error', message: `The service answered ${response.status}.` };
}
