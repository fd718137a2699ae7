/**
 * The text of the live order streams (Server-Sent Events, WHATWG HTML §9.2): `id`, `event` and one
 * `data` line of JSON (JSON.stringify writes no raw line break); a reset has no id, so a client
 * resumes from the last event it really had. Each event is encoded once, whatever the number of
 * streams: its UTF-8 bytes are kept in a WeakMap on the event object, living as long as it does (in a
 * buffer of their own: kept-bytes.ts), and every socket gets the same Buffer.
 */
import type { FeedItem, OrderEvent } from '@storefront/domain';
import { orderEventJson } from '../mappers.js';
import { keptBytes } from '../kept-bytes.js';
import { STREAM_LIMITS } from '../limits.js';

/** The first thing every stream writes: how long the client waits before reconnecting. */
export const RETRY_FRAME = Buffer.from(`retry: ${STREAM_LIMITS.retryMs}\n\n`);
/** A comment, ignored by clients: keeps proxies from closing an idle stream. */
export const PING_FRAME = Buffer.from(': ping\n\n');
/** The client's id is outside the window (or not an id): it must read the state again. */
export const RESET_FRAME = Buffer.from('event: reset\ndata: {}\n\n');

/** Renders feed items as stream bytes, each event once. */
export class EventFrames {
  private readonly rendered = new WeakMap<OrderEvent, Buffer>();

  of(item: FeedItem): Buffer {
    return item.kind === 'reset' ? RESET_FRAME : this.ofEvent(item.event);
  }

  ofEvent(event: OrderEvent): Buffer {
    let frame = this.rendered.get(event);
    if (frame === undefined) {
      frame = keptBytes(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(orderEventJson(event))}\n\n`);
      this.rendered.set(event, frame);
    }
    return frame;
  }
}
