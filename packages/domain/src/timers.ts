/** setTimeout/clearTimeout are not part of ECMAScript; every runtime we target has them. */
type TimerHandle = unknown;
interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
const timers = globalThis as unknown as Timers;

export const setTimer = (callback: () => void, ms: number): TimerHandle => timers.setTimeout(callback, ms);
export const clearTimer = (handle: TimerHandle): void => timers.clearTimeout(handle);
