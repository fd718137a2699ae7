import { expect } from 'chai';
import { describe, it } from 'mocha';
import { dueOf, duration } from '../src/due.js';
import { SseParser, type SseEvent } from '../src/sse.js';

function parse(...chunks: string[]): { events: SseEvent[]; retries: number[] } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ event: (event) => events.push(event), retry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries };
}

describe('Reading the event stream (SSE over fetch)', () => {
  it('reads the server frames: retry, id, event type and one line of JSON, skipping pings', () => {
    const { events, retries } = parse('retry: 3000\n\n: ping\n\nid: 17-0\nevent: order.placed\ndata: {"order_id":"ord_a"}\n\n');
    expect(retries).to.deep.equal([3000]);
    expect(events).to.deep.equal([{ id: '17-0', type: 'order.placed', data: '{"order_id":"ord_a"}' }]);
  });

  it('puts together a frame cut anywhere between chunks, CRLF cut in half included', () => {
    const text = 'id: 1\r\nevent: order.status\r\ndata: {"v":1}\r\n\r\nid: 2\r\nevent: order.status\r\ndata: {"v":2}\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const { events } = parse(text.slice(0, cut), text.slice(cut));
      expect(events.map((e) => e.id), `cut at ${cut}`).to.deep.equal(['1', '2']);
      expect(events.map((e) => e.data)).to.deep.equal(['{"v":1}', '{"v":2}']);
    }
  });

  it('does not dispatch a frame until its blank line arrives', () => {
    expect(parse('id: 1\nevent: order.status\ndata: {}\n').events).to.deep.equal([]);
  });

  it('keeps the last id for an event without one (a reset), and joins data lines', () => {
    const { events } = parse('id: 9\nevent: order.status\ndata: {}\n\nevent: reset\ndata: {}\n\ndata: a\ndata: b\n\n');
    expect(events.map((e) => [e.id, e.type, e.data])).to.deep.equal([
      ['9', 'order.status', '{}'],
      ['9', 'reset', '{}'],
      ['9', 'message', 'a\nb'],
    ]);
  });
});

describe('What a card says about time', () => {
  const created_at = '2026-11-25T12:00:00.000Z';
  const base = { order_id: 'ord_a', status: 'placed' as const, version: 1, created_at, items: [] };

  it('counts down to the promised time, then says how late the order is', () => {
    const promised = { ...base, fulfilment: { type: 'pickup' as const, promised_at: '2026-11-25T12:20:00.000Z' } };
    expect(dueOf(promised, Date.parse('2026-11-25T12:07:55Z'))).to.deep.equal({ text: 'due in 12:05', late: false });
    expect(dueOf(promised, Date.parse('2026-11-25T12:23:10Z'))).to.deep.equal({ text: 'late 3:10', late: true });
  });

  it('shows how long an order without a promised time has waited, and never calls it late', () => {
    expect(dueOf(base, Date.parse('2026-11-25T13:02:03Z'))).to.deep.equal({ text: 'waiting 1:02:03', late: false });
    expect(duration(-5000)).to.equal('0:00');
  });
});
