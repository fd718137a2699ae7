import { expect } from 'chai';
import { describe, it } from 'mocha';
import { pino } from 'pino';
import { BatchedDestination } from '../src/log-sink.js';
import { createAccessLog, createLogger } from '../src/logger.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function recordingTarget() {
  const calls: string[] = [];
  const target = {
    write(chunk: string): boolean {
      calls.push(`write:${chunk}`);
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
  it('hands the lines of one turn of the event loop to the target as one write, in order, on the next turn', async () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target);
    destination.write('one\n');
    destination.write('two\n');
    destination.write('three\n');
    expect(calls).to.deep.equal([]);
    await nextTurn();
    expect(calls).to.deep.equal(['write:one\ntwo\nthree\n']);
  });

  it('hands the lines of two turns over as two writes', async () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target);
    destination.write('first\n');
    await nextTurn();
    destination.write('second\n');
    await nextTurn();
    expect(calls).to.deep.equal(['write:first\n', 'write:second\n']);
  });

  it('flush hands the pending lines over at once, then flushes the target with the callback', async () => {
    const { target, calls } = recordingTarget();
    const destination = new BatchedDestination(target);
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
