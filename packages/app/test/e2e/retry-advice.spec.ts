/**
 * A 500 tells the client what it may do next, and promises a safe retry only where one is safe:
 * reads, and an order placed with an Idempotency-Key. An order without a key may have been stored
 * before the failure; the session routes say what is true of each.
 */
import type { Storefront } from '@storefront/domain';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import type { Res } from './support.js';
import { ALICE, availableProducts, call, expectError, login, placeOrder, useServer } from './support.js';

type UseCase = 'placeOrder' | 'listOrders' | 'listMenu' | 'login' | 'refreshSession' | 'logout' | 'checkStatus';

const FAILED = 'The operation failed on our side.';

describe('e2e: what a 500 says about retrying', function () {
  const h = useServer();

  /** Runs `request` while the use case fails as a broken store would; its answer, checked as a 500. */
  async function failing(useCase: UseCase, request: () => Promise<Res>): Promise<string> {
    const seam = (h.server.storefront as Storefront)[useCase] as unknown as { execute: (...args: unknown[]) => Promise<unknown> };
    const original = seam.execute;
    seam.execute = () => Promise.reject(new Error('connection reset by db-2 (driver detail)'));
    try {
      const res = await request();
      expectError(res, 500, 'internal_error');
      expect(res.text).not.to.include('db-2');
      return res.body.message as string;
    } finally {
      seam.execute = original;
    }
  }

  it('says a GET can be retried', async function () {
    const { access_token: token } = await login(h.url, ALICE.email, ALICE.password);
    expect(await failing('listOrders', () => call(h.url, '/api/orders', { token }))).to.equal(`${FAILED} It is safe to retry.`);
    expect(await failing('listMenu', () => call(h.url, '/API/Products/'))).to.equal(`${FAILED} It is safe to retry.`);
  });

  it('says an order placed with an Idempotency-Key can be sent again with the same key', async function () {
    const { access_token: token } = await login(h.url, ALICE.email, ALICE.password);
    const [dish] = await availableProducts(h.url);
    const message = await failing('placeOrder', () => placeOrder(h.url, token, [{ product_id: dish!.product_id, quantity: 1 }], { 'Idempotency-Key': 'retry-advice-1' }));
    expect(message).to.equal(`${FAILED} It is safe to retry with the same Idempotency-Key.`);
  });

  it('never says an order without an Idempotency-Key is safe to retry: it says to check the orders first', async function () {
    const { access_token: token } = await login(h.url, ALICE.email, ALICE.password);
    const [dish] = await availableProducts(h.url);
    const message = await failing('placeOrder', () => placeOrder(h.url, token, [{ product_id: dish!.product_id, quantity: 1 }]));
    expect(message).not.to.match(/safe to retry\.$/);
    expect(message).to.equal(`${FAILED} The order may have been placed: check GET /api/orders before placing it again (with an Idempotency-Key, a retry is safe).`);
  });

  it('says what is true of a failed login, refresh and logout', async function () {
    const tokens = await login(h.url, ALICE.email, ALICE.password);
    expect(await failing('login', () => call(h.url, '/api/auth/login', { json: ALICE }))).to.equal(
      `${FAILED} Logging in again is harmless, but each attempt counts against the login limit.`,
    );
    expect(await failing('refreshSession', () => call(h.url, '/api/auth/refresh', { json: { refresh_token: tokens.refresh_token } }))).to.equal(
      `${FAILED} The refresh token may already have been used: if a retry with it is refused, log in again.`,
    );
    expect(await failing('logout', () => call(h.url, '/api/auth/logout', { method: 'POST', token: tokens.access_token }))).to.equal(
      `${FAILED} Send the logout again: a 401 answer means the session is already closed.`,
    );
  });
});
