/** The PaymentGateway contract, run against StripePaymentGateway talking to the stand-in of Stripe's HTTP API. */
import { after } from 'mocha';
import { describePaymentGatewayContract, FakeClock, StripeStandIn } from '@storefront/testing';
import { createStripeClient, StripePaymentGateway } from '../src/index.js';

const started: StripeStandIn[] = [];
after(async () => Promise.all(started.map((standIn) => standIn.close())));

describePaymentGatewayContract('StripePaymentGateway', async () => {
  const clock = new FakeClock(Date.now());
  const standIn = await StripeStandIn.start({ clock });
  started.push(standIn);
  // No SDK retries here: an outage answers at once (retries have their own spec).
  const stripe = createStripeClient({ secretKey: standIn.apiKey, apiBase: standIn.url, timeoutMs: 5_000, maxNetworkRetries: 0 });
  return {
    gateway: new StripePaymentGateway(stripe),
    confirm: async (intentId, card) => standIn.confirm(intentId, card),
    setDown: (down) => void (standIn.mode = down ? 'down' : 'up'),
    advance: (ms) => clock.advance(ms),
  };
});
