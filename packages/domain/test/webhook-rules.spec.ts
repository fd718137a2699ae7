import { describe, it } from 'mocha';
import { expect } from 'chai';
import { Issues } from '../src/shared/validation.js';
import { WEBHOOK_LIMITS, WEBHOOK_RETRY_DELAYS_MS } from '../src/webhooks/model.js';
import { outcomeOf } from '../src/webhooks/retry-schedule.js';
import { checkWebhookUrl } from '../src/webhooks/webhook-url.js';
import { rotatedSecrets, withSigningSecrets } from '../src/webhooks/webhook-secrets.js';
import { orderWebhookEvent } from '../src/webhooks/webhook-events.js';

const AT = new Date('2026-01-01T12:00:00Z');

describe('the outcome of a webhook attempt', () => {
  it('is delivered for every 2xx and nothing else', () => {
    for (const code of [200, 201, 204, 299]) expect(outcomeOf({ kind: 'response', statusCode: code }, 1, AT, Math.random).kind).to.equal('delivered');
    for (const code of [199, 300, 301, 404, 500]) expect(outcomeOf({ kind: 'response', statusCode: code }, 1, AT, Math.random).kind).to.equal('retry');
  });

  it('waits the schedule ±10 % after each attempt, and fails after the last', () => {
    WEBHOOK_RETRY_DELAYS_MS.forEach((delay, index) => {
      for (const [random, factor] of [[0, 0.9], [0.5, 1], [0.99999999, 1.1]] as const) {
        const outcome = outcomeOf({ kind: 'error', error: 'refused' }, index + 1, AT, () => random);
        expect(outcome.kind).to.equal('retry');
        if (outcome.kind === 'retry') expect(outcome.nextAttemptAt.getTime() - AT.getTime()).to.be.closeTo(delay * factor, 1);
      }
    });
    expect(outcomeOf({ kind: 'error', error: 'refused' }, WEBHOOK_RETRY_DELAYS_MS.length + 1, AT, Math.random)).to.deep.equal({ kind: 'failed', at: AT, error: 'refused' });
  });

  it('is failed at once for 410 Gone', () => {
    expect(outcomeOf({ kind: 'response', statusCode: 410 }, 1, AT, Math.random)).to.deep.equal({ kind: 'failed', at: AT, statusCode: 410, error: 'HTTP 410' });
  });
});

describe('a webhook URL', () => {
  const checked = (url: unknown, allowHttp = false) => {
    const issues = new Issues();
    const stored = checkWebhookUrl(url, allowHttp, issues);
    return issues.list.length === 0 ? stored : issues.list[0]!.message;
  };

  it('is kept as WHATWG URL serialises it', () => {
    expect(checked('HTTPS://POS.Example.com:443/a/../hooks?x=1')).to.equal('https://pos.example.com/hooks?x=1');
    expect(checked('https://[2001:db8::1]:8443/h')).to.equal('https://[2001:db8::1]:8443/h');
  });

  it('is refused when not https (unless allowed), with credentials, or too long', () => {
    expect(checked('http://pos.example.com/')).to.equal('must be an https:// URL');
    expect(checked('http://pos.example.com/', true)).to.equal('http://pos.example.com/');
    expect(checked('https://:secret@pos.example.com/')).to.equal('must not hold a user name or password');
    expect(checked(`https://pos.example.com/${'a'.repeat(WEBHOOK_LIMITS.urlMaxLength)}`)).to.match(/^must be at most/);
    expect(checked(42)).to.equal('must be an https:// URL');
    expect(checked('javascript:alert(1)')).to.equal('must be an https:// URL');
  });
});

describe('webhook secrets', () => {
  const secret = (name: string, expiresAt?: Date) => ({ secret: name, createdAt: AT, ...(expiresAt && { expiresAt }) });

  it('keeps the previous one for 24 h after a rotation and drops the expired ones', () => {
    const later = new Date(AT.getTime() + 3_600_000);
    const rotated = rotatedSecrets([secret('b', later), secret('a', AT)], 'c', AT);
    expect(rotated.map((s) => s.secret)).to.deep.equal(['c', 'b']);
    expect(rotated[1]!.expiresAt!.getTime() - AT.getTime()).to.equal(24 * 3_600_000);
  });

  it('signs with the unexpired secrets only', () => {
    const endpoint = { secrets: [secret('new'), secret('old', AT)] } as never;
    expect(withSigningSecrets(endpoint, new Date(AT.getTime() - 1)).secrets.map((s) => s.secret)).to.deep.equal(['new', 'old']);
    expect(withSigningSecrets(endpoint, AT).secrets.map((s) => s.secret)).to.deep.equal(['new']);
  });
});

describe('the webhook event of an order event', () => {
  it('is evt_<order>_<version>, header-safe, with the body fixed once', () => {
    const event = orderWebhookEvent({ type: 'order.status', orderId: 'ord_01jd8x0000abcdefghjkmnpq', customerId: 'cus_1', version: 3, status: 'ready', at: AT }, (e) => ({ status: e.status }));
    expect(event.eventId).to.equal('evt_ord_01jd8x0000abcdefghjkmnpq_3').and.match(/^[A-Za-z0-9_]+$/);
    expect(JSON.parse(event.payload)).to.deep.equal({ type: 'order.status', timestamp: AT.toISOString(), data: { status: 'ready' } });
    expect(event).to.include({ orderId: 'ord_01jd8x0000abcdefghjkmnpq', orderVersion: 3 });
  });
});
