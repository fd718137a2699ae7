/** setTimeout/clearTimeout are not part of ECMAScript; every runtime we target has them. */
type TimerHandle = unknown;
interface GlobalTimers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  setInterval(callback: () => void, ms: number): TimerHandle;
  clearInterval(handle: TimerHandle): void;
}
const timers = globalThis as unknown as GlobalTimers;

export const setTimer = (callback: () => void, ms: number): TimerHandle => timers.setTimeout(callback, ms);
export const clearTimer = (handle: TimerHandle): void => timers.clearTimeout(handle);

/** A running timer. Node's may be `unref`ed, so that it does not keep the process alive. */
export interface Timer {
  unref?(): unknown;
}

/**
 * Port: the timers of a component whose timing matters (the live streams' ticker and deadlines, a
 * reader's back-off): the runtime's in production, a fake that moves with its fake clock in tests.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): Timer;
  clearTimeout(timer: Timer | undefined): void;
  setInterval(callback: () => void, ms: number): Timer;
  clearInterval(timer: Timer | undefined): void;
}

/** The runtime's own timers. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => timers.setTimeout(callback, ms) as Timer,
  clearTimeout: (timer) => timers.clearTimeout(timer),
  setInterval: (callback, ms) => timers.setInterval(callback, ms) as Timer,
  clearInterval: (timer) => timers.clearInterval(timer),
};
