import type { HealthProbe } from './health.js';
import type { Clock } from '../shared/security.js';
import { clearTimer, setTimer } from '../shared/timers.js';

/** The state of one dependency. */
export type CheckState = 'ok' | 'down';

/** `ok` when every dependency is, else `degraded`; one check per HealthProbe, by name. */
export interface ServiceStatus {
  readonly status: 'ok' | 'degraded';
  readonly checks: Readonly<Record<string, CheckState>>;
}

export interface CheckStatusOptions {
  /** A probe slower than this is `down`. Default 1 s. */
  readonly timeoutMs?: number;
  /** An answer is reused while its check started less than this long ago. Default 1 s. */
  readonly maxAgeMs?: number;
}

/**
 * Asks every dependency at once; one that fails or is slower than the time-out is `down`.
 *
 * Load balancers poll the status, several per instance: the answer is reused while its check
 * started less than `maxAgeMs` ago (so no answer is older than that), and callers arriving while a
 * check runs share that check instead of starting another. However often it is asked, each
 * dependency is probed at most once at a time and at most about once per `maxAgeMs`. A degraded
 * answer is reused like a healthy one: it is a stalling store that most needs sparing.
 */
export class CheckStatus {
  private readonly timeoutMs: number;
  private readonly maxAgeMs: number;
  private latest: { readonly startedAt: number; readonly answer: Promise<ServiceStatus>; settled: boolean } | null = null;

  constructor(
    private readonly probes: readonly HealthProbe[],
    private readonly clock: Clock,
    options: CheckStatusOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 1000;
  }

  execute(): Promise<ServiceStatus> {
    const now = this.clock.now().getTime();
    const latest = this.latest;
    if (latest !== null && (!latest.settled || this.fresh(latest.startedAt, now))) return latest.answer;
    const entry = {
      startedAt: now,
      answer: this.checkAll().then((status) => {
        entry.settled = true;
        return status;
      }),
      settled: false,
    };
    this.latest = entry;
    return entry.answer;
  }

  /** A clock that went back makes an answer look as if from the future: not fresh. */
  private fresh(startedAt: number, now: number): boolean {
    return now >= startedAt && now - startedAt < this.maxAgeMs;
  }

  private async checkAll(): Promise<ServiceStatus> {
    const results = await Promise.all(this.probes.map(async (probe) => [probe.name, await this.run(probe)] as const));
    const checks = Object.fromEntries(results);
    return { status: results.every(([, state]) => state === 'ok') ? 'ok' : 'degraded', checks };
  }

  private async run(probe: HealthProbe): Promise<CheckState> {
    let timer: unknown;
    const timeout = new Promise<CheckState>((resolve) => {
      timer = setTimer(() => resolve('down'), this.timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(() => probe.check()).then((): CheckState => 'ok', (): CheckState => 'down'), timeout]);
    } finally {
      clearTimer(timer);
    }
  }
}
