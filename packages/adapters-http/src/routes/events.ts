/**
 * Live order updates as Server-Sent Events: GET /api/orders/{order_id}/events (the order's status,
 * to its owner or staff; anybody else 404 like the order itself) and GET /api/staff/events (every
 * order's events, staff only, checked by admission). `Last-Event-ID` resumes after the event a
 * client saw last. The feed is opened before the answer, so that a refusal is an ordinary JSON error;
 * what it hands over before the headers are out waits in the stream (sse/event-stream.ts).
 */
import { type Caller, DomainError, type FeedSink, type Storefront } from '@storefront/domain';
import { type Feed, isStaffRole } from '@storefront/domain/adapter-kit';
import type { EventStream } from '../sse/event-stream.js';
import type { EventStreams } from '../sse/event-streams.js';
import { requireCaller, requireStaff, type Exchange } from '../exchange.js';
import { stream, type Reply } from '../reply.js';
import { get, type Route } from '../route.js';
import { viewerOf } from './orders.js';

/** Never cached, and never held back by a buffering proxy (nginx reads `X-Accel-Buffering`). */
const STREAM_HEADERS = ['Cache-Control', 'no-store', 'X-Accel-Buffering', 'no'];

export function eventRoutes(storefront: Storefront, streams: EventStreams): Route[] {
  return [
    get(
      '/api/orders/:order_id/events',
      'followOrder',
      async (exchange, { params }) => {
        const caller = requireCaller(exchange);
        const lastEventId = lastEventIdOf(exchange);
        const live = streams.take(ownerOf(exchange, caller, isStaffRole(caller.customer.role)));
        return answer(live, (sink) => storefront.orderFeeds.openOrder({ viewer: viewerOf(caller), orderId: params.order_id, lastEventId }, sink));
      },
      { access: 'caller' },
    ),

    get(
      '/api/staff/events',
      'followKitchen',
      async (exchange) => {
        const caller = requireStaff(exchange);
        const lastEventId = lastEventIdOf(exchange);
        const live = streams.take(ownerOf(exchange, caller, true));
        return answer(live, (sink) => storefront.orderFeeds.openKitchen({ lastEventId }, sink));
      },
      { access: 'staff' },
    ),
  ];
}

/** Opens the feed into the stream and answers 200 with it; a refusal gives the stream's slot back. */
async function answer(live: EventStream, open: (sink: FeedSink) => Promise<Feed>): Promise<Reply> {
  try {
    live.attach(await open(live.push));
  } catch (error) {
    live.release();
    throw error;
  }
  return stream(200, live, STREAM_HEADERS);
}

/**
 * The id to resume after, trimmed; none when absent or blank. Anything else goes to the feed as it
 * is: one that is not an id of the log (too old, garbage, absurdly long) is answered with a reset.
 */
function lastEventIdOf(exchange: Pick<Exchange, 'header'>): string | undefined {
  const value = exchange.header('last-event-id')?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function ownerOf(exchange: Pick<Exchange, 'accessToken'>, caller: Caller, staffOnly: boolean) {
  // Admission sets the token with the caller; an exchange made without admission may lack it.
  const token = exchange.accessToken;
  if (token === undefined) throw new DomainError('unauthorized', 'Send the access token as "Authorization: Bearer <token>".');
  return { customerId: caller.customer.customerId, sessionId: caller.claims.sid, token, expiresAt: caller.claims.exp * 1000, staffOnly };
}
