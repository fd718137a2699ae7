/** Helpers of bench/run.mjs: child processes steered over IPC, and load runs (wrk or autocannon). */
import { execFile, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
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
 * The load generator: wrk when it is on the PATH (C, one thread: it needs far less CPU per request
 * than the servers it drives, so it does not cap the fast ones), else autocannon from the npm
 * registry. BENCH_GENERATOR=wrk|autocannon chooses.
 */
export const generator = chooseGenerator(process.env.BENCH_GENERATOR);

function chooseGenerator(wanted) {
  if (wanted !== undefined && wanted !== 'wrk' && wanted !== 'autocannon') throw new Error('BENCH_GENERATOR: wrk or autocannon');
  if (wanted === 'autocannon') return 'autocannon';
  let version;
  try {
    // wrk -v prints its version and exits 1.
    version = execFileSync('wrk', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    version = `${error.stdout ?? ''}`;
  }
  if (/^wrk /m.test(version)) return 'wrk';
  if (wanted === 'wrk') throw new Error('BENCH_GENERATOR=wrk, but wrk is not on the PATH (apt-get install wrk)');
  return 'autocannon';
}

/**
 * A warm-up run, then the measured run: req/s (2xx only), p50/p99 latency in ms, and the count of
 * anything that is not a 2xx (a refused or failed request must not pass for throughput).
 * `afterWarmup` runs between the two (where a caller starts its own counters: the warm-up's CPU
 * must not be charged to the measured requests).
 */
export async function measure({ warmup = 1, duration = 4, afterWarmup, ...options }) {
  const run = generator === 'wrk' ? wrk : cannonRun;
  await run({ ...options, duration: warmup });
  await afterWarmup?.();
  return run({ ...options, duration });
}

async function cannonRun({ uniqueHeader, ...options }) {
  if (uniqueHeader !== undefined) {
    const prefix = runPrefix();
    let n = 0;
    const { method, headers, body } = options;
    options.requests = [{ method, headers, body, setupRequest: (request) => ({ ...request, headers: { ...request.headers, [uniqueHeader]: prefix + ++n } }) }];
  }
  const result = await cannon(options);
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    requests: ok,
  };
}

/** A prefix no earlier run used: `uniqueHeader` values are this and a count. */
const runPrefix = () => `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}-`;

/**
 * One wrk run, one thread; a request other than a plain GET goes through a generated Lua script.
 * `uniqueHeader` (e.g. 'Idempotency-Key'): that header gets a value of its own on every request.
 */
async function wrk({ url, connections = 16, duration, method = 'GET', headers = {}, body, uniqueHeader }) {
  const dir = mkdtempSync(join(os.tmpdir(), 'storefront-wrk-'));
  // wrk takes whole seconds only.
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(duration))}s`, '--latency', '--timeout', '10s'];
  // wrk counts a non-2xx/3xx answer apart: report those, and the rest as the count of successes.
  const script = [
    `wrk.method = ${JSON.stringify(method)}`,
    ...Object.entries(headers).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`),
    body === undefined ? '' : `wrk.body = ${JSON.stringify(body)}`,
    ...(uniqueHeader === undefined
      ? []
      : [
          `local prefix, n = ${JSON.stringify(runPrefix())}, 0`,
          `request = function() n = n + 1; wrk.headers[${JSON.stringify(uniqueHeader)}] = prefix .. n; return wrk.format() end`,
        ]),
  ].join('\n');
  writeFileSync(join(dir, 'request.lua'), script);
  args.push('-s', join(dir, 'request.lua'), url);
  try {
    const out = await new Promise((resolve, reject) =>
      execFile('wrk', args, { encoding: 'utf8', timeout: (duration + 30) * 1000 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    const total = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(out)?.[1]);
    const seconds = secondsOf(/\d+ requests in ([\d.]+\w+)/.exec(out)?.[1]);
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    const errors = socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0);
    const ok = total - non2xx;
    return {
      rps: ok / seconds,
      p50: msOf(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
      p99: msOf(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
      bad: non2xx + errors,
      requests: ok,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** wrk's durations: 812.00us, 1.20ms, 2.00s, 1.00m. */
function msOf(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (match === null) return NaN;
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2]];
  return Math.round(Number(match[1]) * scale * 100) / 100;
}

function secondsOf(text) {
  return msOf(text) / 1000;
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

/**
 * Forks a load client (bench/kitchen-load.mjs), hands it `config` and waits for its result; the
 * client stops by itself, and is killed if it has not answered within `limitMs`.
 */
export function runLoadChild(script, config, limitMs) {
  const child = fork(here(script), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script}: no result within ${limitMs} ms`));
    }, limitMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      if (message.ok) resolve(message.result);
      else reject(new Error(message.error));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it answered`));
    });
    child.send(config);
  });
}
