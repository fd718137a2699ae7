/**
 * Counting instructions with `valgrind --tool=callgrind`, for the in-process benches
 * (bench/inprocess.mjs, bench/inprocess-orders.mjs). Dependency-free: the counted child imports
 * `zeroCounts`, and nothing it loads should run in the counted window.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** In the counted child: counts start over from here (the zeroing is asynchronous; this waits for it). */
export function zeroCounts() {
  return new Promise((resolve) => spawn('callgrind_control', ['-z', String(process.pid)], { stdio: 'ignore' }).on('exit', resolve));
}

/**
 * Runs `node script ...args` under callgrind (`env` added to this process's) and resolves with the
 * instructions it ran from its zeroing to its exit, divided by `requests`: `main`, the main thread's,
 * and `others`, every other thread's (the collector's and the compiler's, whose share moves with
 * their timing from run to run, where the main thread's holds within a few %). Rejects when the
 * child fails.
 */
export function countInstructions(script, args, requests, env = {}) {
  const dir = mkdtempSync(join(os.tmpdir(), 'storefront-callgrind-'));
  const out = join(dir, 'callgrind.out');
  const valgrind = ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${out}`, '--smc-check=all-non-file', process.execPath, script, ...args];
  const summary = (file) => {
    const found = /^summary:\s*(\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (found === null) throw new Error(`${script}: no summary in ${file}`);
    return Number(found[1]);
  };
  return new Promise((resolve, reject) => {
    execFile('valgrind', valgrind, { env: { ...process.env, ...env }, maxBuffer: 64 * 2 ** 20, timeout: 30 * 60_000 }, (error) => {
      try {
        if (error) throw error;
        // One file a thread (`-01` is the main thread's), beside an empty one without a suffix.
        const all = readdirSync(dir)
          .filter((file) => file.startsWith('callgrind.out-'))
          .reduce((sum, file) => sum + summary(file), 0);
        const main = summary('callgrind.out-01');
        resolve({ main: main / requests, others: (all - main) / requests });
      } catch (failure) {
        reject(failure);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
