import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'mocha';
import { pino } from 'pino';
import { BatchedDestination, HANDOVER_BYTES, HANDOVER_DELAY_MS } from '../src/log-sink.js';
import { createAccessLog, createLogger } from '../src/logger.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const after = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function recordingTarget() {
  const calls: string[] = [];
  const target = {
    write(chunk: Buffer): boolean {
      calls.push(`write:${chunk.toString()}`);
      return true;
    },
    flush(callback?: (error?: Error) => void): void {
      calls.push('flush');
      callback?.();
    },
    flushSync(): void {},
  };
  return { target, calls };
}

describe('BatchedDestination', () => {
  it('gathers lines written within the hand-over delay, across turns of the event loop, into one write, in order', async () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target, -1);
    destination.write('one\n');
    await nextTurn();
    destination.write('two\n');
    destination.write('three\n');
    expect(calls).to.deep.equal([]);
    await after(HANDOVER_DELAY_MS * 2);
    expect(calls).to.deep.equal(['write:one\ntwo\nthree\n']);
  });

  it('hands lines written after a hand-over over in a write of their own', async () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target, -1);
    destination.write('first\n');
    await after(HANDOVER_DELAY_MS * 2);
    destination.write('second\n');
    await after(HANDOVER_DELAY_MS * 2);
    expect(calls).to.deep.equal(['write:first\n', 'write:second\n']);
  });

  it('hands over at once when the pending lines reach the size bound, without waiting for the delay', () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target, -1);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < HANDOVER_BYTES / line.length - 1; i++) destination.write(line);
    expect(calls).to.deep.equal([]);
    destination.write(line);
    expect(calls).to.have.length(1);
    expect(calls[0]).to.have.length('write:'.length + HANDOVER_BYTES);
  });

  it('never splits a line between two writes, multi-byte characters included, and loses or reorders nothing', async () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target, -1);
    const wide = `${'é'.repeat(6_000)}\n`; // 12,001 bytes: two do not fit in one buffer
    const huge = `${'x'.repeat(HANDOVER_BYTES + 10)}\n`; // more than the whole buffer
    const lines = [wide, wide, 'short\n', huge, ...Array.from({ length: 100 }, (_, i) => `line ${i}\n`)];
    for (const line of lines) destination.write(line);
    await after(HANDOVER_DELAY_MS * 2);
    expect(calls.length).to.be.greaterThan(1);
    const written = calls.map((call) => call.slice('write:'.length));
    for (const chunk of written) expect(chunk.endsWith('\n'), 'each write ends at the end of a line').to.equal(true);
    expect(written.join('')).to.equal(lines.join(''));
  });

  it('writes every pending line when the process exits, process.exit included', () => {
    const script = [
      `const { createLogger } = await import(${JSON.stringify(new URL('../src/logger.js', import.meta.url).href)});`,
      "const logger = createLogger({ logLevel: 'info', logPretty: false });",
      "for (let i = 0; i < 5000; i++) logger.info({ i }, 'line');",
      'process.exit(0);',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const lines = out.trim().split('\n').map((line) => JSON.parse(line) as { i: number });
    expect(lines.map((line) => line.i)).to.deep.equal([...Array(5000).keys()]);
  });

  it('flush hands the pending lines over at once, then flushes the target with the callback', async () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target, -1);
    destination.write('a\n');
    destination.write('b\n');
    let flushed = false;
    destination.flush(() => (flushed = true));
    expect(calls).to.deep.equal(['write:a\nb\n', 'flush']);
    expect(flushed).to.equal(true);
    await nextTurn();
    expect(calls).to.deep.equal(['write:a\nb\n', 'flush']);
  });
});

type Line = Record<string, unknown>;

function capturingLogger(logLevel: 'info' | 'warn') {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  return { logger: createLogger({ logLevel, logPretty: false }, stream), lines };
}

describe('createAccessLog', () => {
  const entry = { requestId: 'req-1.a:b', method: 'GET', path: '/api/products?page=2', status: 200, ms: 1.5 };

  function bothLines(path: string): { fast: string; pino: string } {
    const { logger, lines } = capturingLogger('info');
    const accessLog = createAccessLog(logger)!;
    accessLog({ ...entry, path });
    logger.info({ req_id: entry.requestId, method: entry.method, path, status: entry.status, ms: entry.ms }, 'request');
    expect(lines).to.have.length(2);
    return { fast: lines[0]!, pino: lines[1]! };
  }

  function withoutTime(text: string): Line {
    const { time, ...rest } = JSON.parse(text) as Line;
    expect(time).to.be.a('number');
    expect(Math.abs((time as number) - Date.now())).to.be.below(1_000);
    return rest;
  }

  it('writes the same text as pino for every duration and path, line after line', () => {
    const { logger, lines } = capturingLogger('info');
    const accessLog = createAccessLog(logger)!;
    const durations = [0, 0.1, 0.5, 1, 1.5, 6, 9.9, 10, 12.3, 99.95, 999.9, 10_000.4, 1_234_567.8, 0.04];
    const paths = ['/api/products', '/api/products', '/api/orders', '/api/products', '/x"y'];
    const textOf = (line: string, key: string): string => new RegExp(`"${key}":("[^"]*"|[^,}]*)`).exec(line)![1]!;
    for (const [i, ms] of durations.entries()) {
      const path = paths[i % paths.length]!;
      const rounded = Math.round(ms * 10) / 10;
      accessLog({ ...entry, path, ms: rounded });
      logger.info({ req_id: entry.requestId, method: entry.method, path, status: entry.status, ms: rounded }, 'request');
      const [fast, expected] = lines.splice(0, 2);
      expect(textOf(fast!, 'ms'), `ms ${ms}`).to.equal(textOf(expected!, 'ms'));
      expect(JSON.parse(fast!).path, `path ${path}`).to.equal(path);
    }
  });

  it("writes the line logger.info writes: same fields, same order, same values, on the logger's stream", () => {
    const { fast, pino: expected } = bothLines(entry.path);
    expect(fast.endsWith('\n')).to.equal(true);
    const ours = withoutTime(fast);
    const theirs = withoutTime(expected);
    expect(Object.keys(ours)).to.deep.equal(Object.keys(theirs));
    expect(ours).to.deep.equal(theirs);
    expect(ours).to.include({ level: 30, service: 'storefront', req_id: 'req-1.a:b', method: 'GET', status: 200, ms: 1.5, msg: 'request' });
  });

  it('keeps a path with a quote, a backslash and control characters intact in valid JSON', () => {
    const path = '/api/x"\\\u0001\n\u2028é';
    const { fast, pino: expected } = bothLines(path);
    expect(fast.indexOf('\n')).to.equal(fast.length - 1);
    const ours = withoutTime(fast);
    expect(ours['path']).to.equal(path);
    expect(ours).to.deep.equal(withoutTime(expected));
  });

  it('writes nothing when the level is above info', () => {
    const { logger, lines } = capturingLogger('warn');
    const accessLog = createAccessLog(logger)!;
    accessLog(entry);
    expect(lines).to.deep.equal([]);
  });

  it('follows a level changed after it was made', () => {
    const { logger, lines } = capturingLogger('info');
    const accessLog = createAccessLog(logger)!;
    logger.level = 'error';
    accessLog(entry);
    expect(lines).to.deep.equal([]);
    logger.level = 'info';
    accessLog(entry);
    expect(lines).to.have.length(1);
  });

  it('is undefined for a pino logger not made by createLogger', () => {
    expect(createAccessLog(pino())).to.equal(undefined);
  });
});
