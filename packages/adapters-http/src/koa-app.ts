/**
 * The one file that knows Koa: Koa gives each request its context and composes the middleware,
 * @koa/router matches the routes (HEAD with GET, 405 and OPTIONS from `allowedMethods`), koa-body
 * reads JSON bodies. Everything else is Koa-free, for the reasons measured in docs/performance.md:
 * the reply is a value written once by the lifecycle (lifecycle.ts, write-reply.ts), and one
 * deadline queue bounds every request. The chain: lifecycle → router → admission → body → the
 * route's operation check against openapi.yaml and its handler (dispatch.ts); for no route,
 * admission, then 405/OPTIONS/404.
 */
import Router from '@koa/router';
import { RateLimitedError, type Caller } from '@storefront/domain';
import type { RateLimitStatus } from '@storefront/domain/adapter-kit';
import Koa, { type Context, type Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { admission, type Admit, type Admitted } from './admission.js';
import { accessLogThrough } from './access-log.js';
import type { HttpApp, HttpAppDependencies } from './app-types.js';
import { clientKeyOf, rateLimitKeyOfAddress } from './client-address.js';
import { dispatch, verifyRoutes, type RoutedExchange } from './dispatch.js';
import { EventStreams } from './sse/event-streams.js';
import { Lifecycle, type InFlight } from './lifecycle.js';
import { HTTP_LIMITS } from './limits.js';
import { HttpProblem } from './problem.js';
import { empty, type Reply } from './reply.js';
import type { Route } from './route.js';
import { accountRoutes } from './routes/account.js';
import { authRoutes } from './routes/auth.js';
import { docsRoutes } from './routes/docs.js';
import { eventRoutes } from './routes/events.js';
import { menuRoutes } from './routes/menu.js';
import { OrderJsonCache } from './order-json-cache.js';
import { kitchenRoutes } from './routes/kitchen.js';
import { kitchenPageRoutes } from './routes/kitchen-page.js';
import { orderRoutes } from './routes/orders.js';
import { paymentEventRoutes } from './routes/payment-events.js';
import { readRawBody } from './raw-body.js';
import { refundRoutes } from './routes/refunds.js';
import { storeRoutes } from './routes/store.js';
import { webhookRoutes } from './routes/webhooks.js';
import { OpenStreams } from './sse/streamed-replies.js';

export function createHttpApp(deps: HttpAppDependencies): HttpApp {
  const { storefront, logger, options = {} } = deps;
  const hops = options.trustProxyHops ?? 1;
  if (!Number.isSafeInteger(hops) || hops < 1) throw new RangeError(`trustProxyHops must be an integer ≥ 1, got ${hops}`);
  const koa = new Koa({ proxy: options.trustProxy ?? false, maxIpsCount: hops });
  koa.silent = true;
  koa.on('error', (error: unknown) => {
    // A client that resets its connection mid-answer (an event stream it closes) has left; that is
    // not a failure of ours: a debug line with the code, no stack.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && CLIENT_GONE.has(code)) logger.debug?.({ code }, 'client connection reset');
    else logger.error({ err: error }, 'response stream failed');
  });

  const streams = new OpenStreams(options.streams?.maxBufferedBytes, options.streams?.timers);
  const { policy } = storefront.checkRateLimit;
  const lifecycle = new Lifecycle(
    logger,
    deps.accessLog ?? accessLogThrough(logger),
    options.requestTimeoutMs ?? HTTP_LIMITS.requestTimeoutMs,
    streams,
    `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
    options.observer,
  );
  const admit = admission(storefront);
  const starting = startingRefusal(options.ready);
  // Counted like any request (its answer carries the quota headers); while starting, whatever
  // admission decided but a 429 (a token it could not check in a store not ready) becomes the 503.
  const admitOnceStarted: Admit = async (exchange, route) => {
    try {
      await admit(exchange, route);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) starting();
      throw error;
    }
    starting();
  };
  const body = jsonBody(options.bodyLimitBytes ?? HTTP_LIMITS.bodyLimitBytes);
  // One cache of rendered orders for every route that answers orders (order-json-cache.ts).
  const orderJson = new OrderJsonCache();
  // The live order streams: per-caller limit, pings and token revalidation (sse/event-streams.ts).
  const events = new EventStreams(storefront.authenticate, options.streams, (error) => logger.error({ err: error }, 'event stream visit failed'));
  const routes = [
    ...menuRoutes(storefront),
    ...orderRoutes(storefront, orderJson),
    ...kitchenRoutes(storefront, orderJson),
    ...refundRoutes(storefront),
    ...storeRoutes(storefront),
    ...eventRoutes(storefront, events),
    ...authRoutes(storefront, events),
    ...accountRoutes(storefront, events),
    ...webhookRoutes(storefront.webhooks),
    ...paymentEvents(deps),
  ];
  // The document's checks are compiled now, once per process, not on the first request.
  verifyRoutes(routes);
  // The reference and the kitchen page are served like the interface's routes, but are not among them (HttpApp.routes).
  const reference = options.apiReference === undefined ? [] : docsRoutes(options.apiReference);
  const kitchenPage = options.kitchenPage === undefined ? [] : kitchenPageRoutes(options.kitchenPage);

  const router = new Router();
  for (const route of [...routes, ...reference, ...kitchenPage]) {
    // One middleware per route (admission, the body, the handler in turn): every layer of a
    // chain costs a dispatch per request (docs/performance.md).
    const readBody = route.method === 'GET' ? undefined : route.rawBodyLimit === undefined ? body : rawBody(route.rawBodyLimit);
    router.register(route.path, [route.method], async (ctx) => {
      const exchange = exchangeOf(ctx);
      exchange.route = route;
      await (route.operation === 'getStatus' ? admit(exchange, route) : admitOnceStarted(exchange, route));
      if (readBody !== undefined) await readBody(ctx, noNext);
      exchange.reply = await dispatch(route, exchange);
    });
  }

  koa.use(async (ctx, next) => {
    // The lifecycle writes every reply itself.
    ctx.respond = false;
    const exchange = new KoaExchange(ctx, lifecycle.requestId(ctx.req.headers['x-request-id']));
    (ctx.state as State).exchange = exchange;
    const pending = lifecycle.start(exchange);
    try {
      await next();
      lifecycle.settle(exchange, pending, exchange.reply ?? unrouted(ctx));
    } catch (error) {
      lifecycle.settle(exchange, pending, undefined, error);
    }
  });
  koa.use(router.routes());
  koa.use(router.allowedMethods());
  // No route for the path and method: the request is still admitted (and counted) before its 404,
  // 405 or OPTIONS answer, which allowedMethods decides once this returns.
  koa.use((ctx) => admitOnceStarted(exchangeOf(ctx), undefined));

  return {
    listener: koa.callback(),
    routes: () => routes.map((route) => ({ method: route.method, path: route.path })),
    endStreams: () => streams.endAll(),
    requestId: (incoming) => lifecycle.requestId(incoming),
    get openStreams() {
      return streams.size;
    },
  };
}

const noNext = (): Promise<void> => Promise.resolve();

/** The payment provider's events route, when payments are on (else its path is unknown: 404). */
function paymentEvents(deps: HttpAppDependencies): Route[] {
  if (deps.paymentEvents === undefined) return [];
  const take = deps.storefront.takeProviderEvent;
  if (take === undefined) throw new Error('paymentEvents is given but the storefront has no payments: give it the payment ports too');
  return paymentEventRoutes(deps.paymentEvents, take);
}

/** The body as bytes, untouched, for a route that verifies them (raw-body.ts): koa-body never sees it. */
function rawBody(limitBytes: number): Middleware {
  return async (ctx) => {
    (ctx.request as { body?: unknown }).body = await readRawBody(ctx.req, limitBytes);
  };
}

/**
 * Until `ready` says so, every request but the status check is refused with 503 and Retry-After: a
 * starting instance answers nothing it cannot answer right (DECISIONS "Ready means ready");
 * /api/status says 503 on its own (the embedder's store check).
 */
function startingRefusal(ready: (() => boolean) | undefined): () => void {
  if (ready === undefined) return () => undefined;
  let open = false;
  return () => {
    if (open || (open = ready())) return;
    throw new HttpProblem('service_unavailable', 'The service is starting; retry shortly.', undefined, { 'Retry-After': '1' });
  };
}

/** What a socket reports when its peer went away. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

interface State {
  exchange: KoaExchange;
}

function exchangeOf(ctx: Context): KoaExchange {
  return (ctx.state as State).exchange;
}

/** What allowedMethods decided for a request no route answered. */
function unrouted(ctx: Context): Reply {
  const allow = ctx.response.get('Allow');
  if (ctx.method === 'OPTIONS' && ctx.status === 200) return empty(204, ['Allow', allow]);
  // 501 is allowedMethods' answer to a method no route has (TRACE, PROPFIND): on a path of ours
  // that is a 405 like any other; on no path of ours (nothing allowed), a 404.
  if ((ctx.status === 405 || ctx.status === 501) && allow !== '') {
    throw new HttpProblem('method_not_allowed', `${ctx.method} is not allowed here; use ${allow}.`, undefined, { Allow: allow });
  }
  ctx.remove('Allow');
  throw new HttpProblem('not_found', 'No such resource.');
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** One request, as handlers (Exchange), admission and the lifecycle see it. */
class KoaExchange implements InFlight, Admitted, RoutedExchange {
  caller: Caller | undefined = undefined;
  accessToken: string | undefined = undefined;
  rateLimit: RateLimitStatus | undefined = undefined;
  route: Route | undefined = undefined;
  reply: Reply | undefined = undefined;
  readonly startedAt = performance.now();
  private controller: AbortController | undefined;
  private clientKey: string | undefined;

  constructor(
    private readonly ctx: Context,
    readonly requestId: string,
  ) {}

  get req() {
    return this.ctx.req;
  }

  get res() {
    return this.ctx.res;
  }

  get method(): string {
    return this.ctx.method;
  }

  get path(): string {
    return this.ctx.path;
  }

  get params(): Readonly<Record<string, string>> {
    return (this.ctx as Context & { params?: Record<string, string> }).params ?? NO_PARAMS;
  }

  get query() {
    return this.ctx.query;
  }

  get body(): unknown {
    return (this.ctx.request as { body?: unknown }).body;
  }

  header(name: string): string | undefined {
    const value = this.ctx.req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /**
   * The client's address, keyed for the per-client limits: Koa's `ctx.ip` behind trusted proxies
   * (the X-Forwarded-For entry the outermost trusted proxy appended: `maxIpsCount`), else the
   * socket's address without asking Koa (it reads and splits X-Forwarded-For even to ignore it). A
   * forwarded value that is not an address counts as the socket's (client-address.ts).
   */
  get client(): string {
    this.clientKey ??= clientKeyOf(this.ctx.app.proxy ? this.ctx.ip : undefined, this.ctx.req.socket.remoteAddress ?? '');
    return this.clientKey;
  }

  /** Made on first use (login asks for it): no AbortController for requests that never look. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.ctx.res;
      // `close` comes after a complete answer too; only one cut short means the client left.
      if (res.destroyed) controller.abort();
      else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort();
        });
      }
    }
    return this.controller.signal;
  }

  abort(): void {
    this.controller?.abort();
  }
}

/** JSON request bodies through koa-body, size-limited while reading; failures are clear 4xx problems. */
function jsonBody(limitBytes: number): Middleware {
  const JSON_TYPES = ['application/json', 'application/*+json'];
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limitBytes,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: ['POST' as never, 'PATCH' as never],
    onError: (error) => {
      const status = (error as { status?: number }).status;
      if (status === 413) throw new HttpProblem('payload_too_large', `The body is larger than ${limitBytes} bytes.`);
      if (status === 415) throw new HttpProblem('unsupported_media_type', 'The body must be UTF-8 JSON.');
      throw new HttpProblem('invalid_json', 'The body is not valid JSON: send a JSON object.');
    },
  });
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    // The type nearly every client sends is taken as it is; any other is parsed (koa-body checks again).
    if (hasBody && ctx.req.headers['content-type'] !== 'application/json' && ctx.is(JSON_TYPES) === false) {
      throw new HttpProblem('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
    }
    await parse(ctx, next);
  };
}
