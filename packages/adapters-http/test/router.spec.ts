import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { Context, Middleware, Next } from 'koa';
import { HttpProblem } from '../src/problem.js';
import { Reply } from '../src/reply.js';
import { Router, SAFE_TO_RETRY, type Admit, type Endpoint } from '../src/router.js';

/** The little of a Koa context the router reads and writes. */
interface FakeContext {
  method: string;
  path: string;
  state: { reply: Reply; endpoint?: Endpoint };
  ran: string[];
}

function context(method: string, path: string): FakeContext {
  return { method, path, state: { reply: new Reply() }, ran: [] };
}

function handler(name: string): Middleware {
  return async (ctx, next) => {
    (ctx as unknown as FakeContext).ran.push(name);
    if (name.startsWith('before-')) await next();
  };
}

async function dispatch(router: Router, ctx: FakeContext, admit?: Admit): Promise<{ fellThrough: boolean; error?: unknown }> {
  let fellThrough = false;
  const next: Next = async () => {
    fellThrough = true;
  };
  try {
    await router.middleware(admit)(ctx as unknown as Context, next);
    return { fellThrough };
  } catch (error) {
    return { fellThrough, error };
  }
}

function aRouter(): Router {
  return new Router()
    .post('/api/orders', { retry: 'check first' }, handler('before-body'), handler('place'))
    .get('/api/orders', handler('list'))
    .get('/api/products', handler('products'))
    .get('/api/rate-limit', { quota: 'peek' }, handler('quota'))
    .post('/api/auth/login', { retry: 'log in again' }, handler('login'));
}

describe('Router', () => {
  it('runs the handler of the method and path, and a chain of handlers in order', async () => {
    const get = context('GET', '/api/products');
    expect(await dispatch(aRouter(), get)).to.deep.equal({ fellThrough: false });
    expect(get.ran).to.deep.equal(['products']);
    const post = context('POST', '/api/orders');
    await dispatch(aRouter(), post);
    expect(post.ran).to.deep.equal(['before-body', 'place']);
  });

  it('matches as @koa/router did: any case, one optional trailing slash, HEAD with GET', async () => {
    for (const [method, path] of [['GET', '/API/Products'], ['GET', '/api/products/'], ['HEAD', '/api/products'], ['GET', '/Api/Orders/']]) {
      const ctx = context(method!, path!);
      await dispatch(aRouter(), ctx);
      expect(ctx.ran, `${method} ${path}`).to.have.length(1);
    }
  });

  it('passes an unknown path on (the 404 is the error handler\'s), without touching the response', async () => {
    for (const path of ['/api/menu', '/api/products//', '/api/products/x', '/api/pr%6Fducts', '/api/prödücts', '/']) {
      const ctx = context('GET', path);
      expect(await dispatch(aRouter(), ctx), path).to.deep.equal({ fellThrough: true });
      expect(ctx.state.reply, path).to.deep.include({ status: undefined, headers: [] });
    }
  });

  it('refuses another method on a known path with 405 method_not_allowed and Allow', async () => {
    const ctx = context('DELETE', '/api/orders');
    const { error } = await dispatch(aRouter(), ctx);
    expect(error).to.be.instanceOf(HttpProblem);
    expect(error).to.include({ status: 405, code: 'method_not_allowed' });
    expect((error as HttpProblem).headers).to.deep.equal({ Allow: 'POST, HEAD, GET' });
    // The error handler puts the problem's headers on the reply.
    expect(ctx.state.reply.headers).to.deep.equal([]);
    const head = await dispatch(aRouter(), context('HEAD', '/api/auth/login'));
    expect((head.error as HttpProblem).headers).to.deep.equal({ Allow: 'POST' });
  });

  it('answers OPTIONS on a known path with 204 and Allow, running no handler', async () => {
    const ctx = context('OPTIONS', '/api/products/');
    expect(await dispatch(aRouter(), ctx)).to.deep.equal({ fellThrough: false });
    expect(ctx.state.reply.status).to.equal(204);
    expect(ctx.state.reply.get('Allow')).to.equal('HEAD, GET');
    expect(ctx.ran).to.deep.equal([]);
  });

  it('lists its routes, and refuses a route added twice or a path it could never match', () => {
    expect(aRouter().table()).to.deep.equal([
      { method: 'POST', path: '/api/orders' },
      { method: 'GET', path: '/api/orders' },
      { method: 'GET', path: '/api/products' },
      { method: 'GET', path: '/api/rate-limit' },
      { method: 'POST', path: '/api/auth/login' },
    ]);
    expect(() => aRouter().get('/api/products', handler('again'))).to.throw(/routed twice/);
    expect(() => new Router().get('/API/Products', handler('x'))).to.throw(/lower-case/);
    expect(() => new Router().get('/api/products/', handler('x'))).to.throw(/lower-case/);
  });

  it('records the route it matched, with the properties it was registered with, whatever the spelling of the path', async () => {
    for (const path of ['/api/rate-limit', '/api/rate-limit/', '/API/RATE-LIMIT', '/Api/Rate-Limit/']) {
      for (const method of ['GET', 'HEAD']) {
        const ctx = context(method, path);
        await dispatch(aRouter(), ctx);
        expect(ctx.state.endpoint, `${method} ${path}`).to.include({ path: '/api/rate-limit', quota: 'peek', retry: SAFE_TO_RETRY });
      }
    }
    const order = context('POST', '/API/orders/');
    await dispatch(aRouter(), order);
    expect(order.state.endpoint).to.include({ path: '/api/orders', quota: 'counted', retry: 'check first' });
    // A path registered for GET only peeks on GET: another method matches no route.
    const post = context('POST', '/api/rate-limit');
    await dispatch(aRouter(), post);
    expect(post.state.endpoint).to.equal(undefined);
  });

  it('admits every request before anything answers it, telling admission the route (none for a 404, 405 or OPTIONS)', async () => {
    const seen: [string, string | undefined][] = [];
    const admit: Admit = async (ctx, endpoint) => {
      seen.push([`${ctx.method} ${ctx.path}`, endpoint?.path]);
    };
    await dispatch(aRouter(), context('GET', '/API/Products/'), admit);
    await dispatch(aRouter(), context('GET', '/api/nowhere'), admit);
    await dispatch(aRouter(), context('DELETE', '/api/orders'), admit);
    await dispatch(aRouter(), context('OPTIONS', '/api/orders'), admit);
    expect(seen).to.deep.equal([
      ['GET /API/Products/', '/api/products'],
      ['GET /api/nowhere', undefined],
      ['DELETE /api/orders', undefined],
      ['OPTIONS /api/orders', undefined],
    ]);
  });

  it('runs no handler, and answers nothing, when admission refuses', async () => {
    const refusal = new Error('refused');
    const admit: Admit = () => Promise.reject(refusal);
    for (const [method, path] of [['GET', '/api/products'], ['OPTIONS', '/api/orders'], ['GET', '/nowhere']]) {
      const ctx = context(method!, path!);
      expect(await dispatch(aRouter(), ctx, admit)).to.deep.equal({ fellThrough: false, error: refusal });
      expect(ctx.ran).to.deep.equal([]);
      expect(ctx.state.reply.status).to.equal(undefined);
    }
  });
});
