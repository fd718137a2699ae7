/** A dependency that can say whether it is reachable. */
export interface HealthProbe {
  readonly name: string;
  /** Resolves when healthy, rejects (or times out) when not. */
  check(): Promise<void>;
}
