import type { HealthProbe } from '../ports/health.js';
import { clearTimer, setTimer } from '../timers.js';

/** The state of one dependency. */
export type CheckState = 'ok' | 'down';

/** `ok` when every dependency is, else `degraded`; one check per HealthProbe, by name. */
export interface ServiceStatus {
  readonly status: 'ok' | 'degraded';
  readonly checks: Readonly<Record<string, CheckState>>;
}

/** Asks every dependency at once; one that fails or is slower than the time-out is `down`. */
export class CheckStatus {
  constructor(
    private readonly probes: readonly HealthProbe[],
    private readonly timeoutMs = 1000,
  ) {}

  async execute(): Promise<ServiceStatus> {
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
