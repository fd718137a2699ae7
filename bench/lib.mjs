/** Helpers of bench/run.mjs: child processes steered over IPC, and autocannon runs. */
import { fork } from 'node:child_process';
import { openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));

/**
 * Forks `script` (service.mjs or baseline.mjs) with `env` and waits for its `ready` message.
 * `stdout`: 'null' sends the child's log lines to /dev/null; 'pipe' reads and drops them here (a
 * log consumer on the other end of a pipe, as under a process supervisor).
 */
export async function startChild(script, env, { stdout = 'null', execArgv = [] } = {}) {
  const out = stdout === 'pipe' ? 'pipe' : openSync('/dev/null', 'w');
  const child = fork(here(script), [], {
    env: { ...env, NODE_ENV: 'production' },
    stdio: ['ignore', out, 'inherit', 'ipc'],
    execArgv,
  });
  if (stdout === 'pipe') child.stdout.resume();
  let nextId = 1;
  const pending = new Map();
  let ready;
  const readyPromise = new Promise((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  child.on('message', (message) => {
    if (message.ready) return ready(message);
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.result);
    else waiter.reject(new Error(message.error));
  });
  const info = await readyPromise;
  return {
    ...info,
    pid: child.pid,
    call(cmd, args = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, cmd, ...args });
      });
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ id: 0, cmd: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One autocannon run. */
export function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 16, pipelining: 1, timeout: 10, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * A warm-up run, then the measured run: req/s (2xx only), p50/p99 latency in ms, and the count of
 * anything that is not a 2xx (a refused or failed request must not pass for throughput).
 */
export async function measure({ warmup = 1, duration = 4, ...options }) {
  await cannon({ ...options, duration: warmup });
  const result = await cannon({ ...options, duration });
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    requests: ok,
  };
}

export async function json(url, init = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return { body: JSON.parse(text), text, headers: response.headers };
}

export async function login(base, email, password) {
  const { body } = await json(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return body.access_token;
}
