/**
 * Fault injection at an adapter boundary: wraps any port object and, per method, fails a call
 * before it reaches the adapter (the store never saw it), fails it after the adapter did its work
 * (the acknowledgement was lost), or holds it at a gate until the test lets it through (a request
 * that stalls, e.g. past its lock). Everything else goes straight to the real adapter.
 */

/** A thrown stand-in for whatever the store's client would throw. */
export class InjectedFault extends Error {
  constructor(method: string, when: 'before' | 'after') {
    super(`injected fault: ${method} failed ${when === 'before' ? 'before reaching' : 'after'} the store`);
    this.name = 'InjectedFault';
  }
}

/** A call held at a gate: `reached` resolves when it arrives, `open()` lets it go on. */
export interface Gate {
  readonly reached: Promise<void>;
  open(): void;
}

type Plan = { readonly kind: 'fail'; readonly when: 'before' | 'after' } | { readonly kind: 'hold'; readonly gate: GateImpl };

class GateImpl implements Gate {
  private arrive!: () => void;
  private release!: () => void;
  readonly reached = new Promise<void>((resolve) => (this.arrive = resolve));
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  async pass(): Promise<void> {
    this.arrive();
    await this.opened;
  }

  open(): void {
    this.release();
  }
}

/** Controls the faults of one wrapped object; `target` is what the code under test is given. */
export class Faults<T extends object> {
  readonly target: T;
  private readonly plans = new Map<string, Plan[]>();
  private readonly downed = new Set<string>();

  constructor(inner: T) {
    this.target = new Proxy(inner, {
      get: (object, property, receiver) => {
        const value: unknown = Reflect.get(object, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => this.call(property, () => (value as (...a: unknown[]) => unknown).apply(object, args));
      },
    });
  }

  /** The next call of `method` fails, `before` reaching the adapter or `after` it did its work. */
  fail(method: keyof T & string, when: 'before' | 'after'): this {
    return this.plan(method, { kind: 'fail', when });
  }

  /** Every call of `method` from now on fails before reaching the adapter. */
  down(method: keyof T & string): this {
    this.downed.add(method);
    return this;
  }

  /** The next call of `method` waits at the returned gate. */
  hold(method: keyof T & string): Gate {
    const gate = new GateImpl();
    this.plan(method, { kind: 'hold', gate });
    return gate;
  }

  /** Forgets every planned fault. */
  heal(): void {
    this.plans.clear();
    this.downed.clear();
  }

  private plan(method: string, plan: Plan): this {
    const list = this.plans.get(method) ?? [];
    list.push(plan);
    this.plans.set(method, list);
    return this;
  }

  private async call(method: string, invoke: () => unknown): Promise<unknown> {
    if (this.downed.has(method)) throw new InjectedFault(method, 'before');
    const plan = this.plans.get(method)?.shift();
    if (plan?.kind === 'hold') await plan.gate.pass();
    if (plan?.kind === 'fail' && plan.when === 'before') throw new InjectedFault(method, 'before');
    const result = await invoke();
    if (plan?.kind === 'fail' && plan.when === 'after') throw new InjectedFault(method, 'after');
    return result;
  }
}
