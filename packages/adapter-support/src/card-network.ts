/**
 * A card network in memory, with Stripe's PaymentIntent model and its test payment methods: what
 * the memory PaymentGateway and the test stand-in of Stripe's HTTP API both run on, so that they
 * decline, expire and refuse alike. Synchronous and deterministic: time is the injected clock.
 *
 * Rules, as Stripe has them: a declined confirmation leaves the intent `requires_payment_method`
 * (another card may follow); capture takes at most `amount_capturable` and only from
 * `requires_capture`; an authorization not captured within `authorizationWindowMs` lapses
 * (`canceled`, reason `automatic`); cancel is refused once captured; refunds add up to at most
 * what was captured.
 */
import type { Clock } from '@storefront/domain';
import { newId } from '@storefront/domain/adapter-kit';
import type { IntentView } from './payment-intents.js';

/** Stripe's test payment methods this network knows, and what the issuer answers to each. */
export const TEST_CARDS: Readonly<Record<string, CardAnswer>> = {
  pm_card_visa: { kind: 'approve' },
  pm_card_mastercard: { kind: 'approve' },
  pm_card_chargeDeclined: { kind: 'decline', code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedExpiredCard: { kind: 'decline', code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' },
  pm_card_authenticationRequired: { kind: 'authenticate' },
};

export type CardAnswer =
  | { readonly kind: 'approve' }
  | { readonly kind: 'authenticate' }
  | { readonly kind: 'decline'; readonly code: string; readonly declineCode: string; readonly message: string };

/** Stripe's default: an uncaptured card authorization is cancelled 7 days after it was made. */
export const AUTHORIZATION_WINDOW_MS = 7 * 24 * 3600_000;

export interface CardIntent extends IntentView {
  readonly created: number;
  readonly capture_method: 'manual';
  readonly payment_method: string | null;
  readonly latest_charge: string | null;
  readonly last_payment_error: { readonly code: string; readonly decline_code: string; readonly message: string; readonly type: 'card_error' } | null;
  /** When the authorization lapses (epoch ms); null until authorized. */
  readonly authorized_until: number | null;
}

export interface CardRefund {
  readonly id: string;
  readonly amount: number;
  readonly payment_intent: string;
  readonly charge: string;
  readonly status: 'succeeded' | 'failed';
  readonly reason: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly created: number;
}

/**
 * Why the network refused: `declined` (Stripe's 402 card_error; the intent moved on),
 * `refused` (400 invalid_request_error for the intent's state or amounts), `missing` (404).
 */
export class CardNetworkError extends Error {
  constructor(
    readonly kind: 'declined' | 'refused' | 'missing',
    readonly code: string,
    message: string,
    readonly intent?: CardIntent,
    readonly declineCode?: string,
  ) {
    super(message);
    this.name = 'CardNetworkError';
  }
}

export interface CardNetworkOptions {
  readonly clock: Clock;
  readonly authorizationWindowMs?: number;
}

/** 100 random bits, as the domain's ids have. */
const token = (): string => newId('ses').slice('ses_'.length);

export class CardNetwork {
  private readonly intents = new Map<string, CardIntent>();
  private readonly refunds = new Map<string, CardRefund>();
  private readonly clock: Clock;
  private readonly windowMs: number;

  constructor(options: CardNetworkOptions) {
    this.clock = options.clock;
    this.windowMs = options.authorizationWindowMs ?? AUTHORIZATION_WINDOW_MS;
  }

  create(input: { amount: number; currency: string; metadata: Readonly<Record<string, string>> }): CardIntent {
    const id = `pi_${token()}`;
    const intent: CardIntent = {
      id,
      status: 'requires_payment_method',
      amount: input.amount,
      currency: input.currency.toLowerCase(),
      client_secret: `${id}_secret_${token()}`,
      metadata: { ...input.metadata },
      amount_capturable: 0,
      amount_received: 0,
      amount_refunded: 0,
      cancellation_reason: null,
      last_payment_error: null,
      created: Math.floor(this.now() / 1000),
      capture_method: 'manual',
      payment_method: null,
      latest_charge: null,
      authorized_until: null,
    };
    this.intents.set(id, intent);
    return intent;
  }

  /** The intent now: an authorization past its window has lapsed. */
  intent(id: string): CardIntent {
    const intent = this.intents.get(id);
    if (intent === undefined) throw new CardNetworkError('missing', 'resource_missing', `No such payment_intent: '${id}'`);
    if (intent.status === 'requires_capture' && intent.authorized_until !== null && this.now() >= intent.authorized_until) {
      return this.save({ ...intent, status: 'canceled', cancellation_reason: 'automatic', amount_capturable: 0 });
    }
    return intent;
  }

  refund(id: string): CardRefund {
    const refund = this.refunds.get(id);
    if (refund === undefined) throw new CardNetworkError('missing', 'resource_missing', `No such refund: '${id}'`);
    return refund;
  }

  /** The intent's refunds, oldest first. */
  refundsOf(intentId: string): readonly CardRefund[] {
    return [...this.refunds.values()].filter((refund) => refund.payment_intent === intentId);
  }

  /** What Stripe.js does with the client secret: confirm with a card (or a server-side confirm). */
  confirm(id: string, paymentMethod: string): CardIntent {
    const intent = this.intent(id);
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      throw this.unexpected(intent, 'confirm');
    }
    const answer = TEST_CARDS[paymentMethod];
    if (answer === undefined) throw new CardNetworkError('missing', 'resource_missing', `No such PaymentMethod: '${paymentMethod}'`);
    if (answer.kind === 'decline') {
      const error = { code: answer.code, decline_code: answer.declineCode, message: answer.message, type: 'card_error' } as const;
      const declined = this.save({ ...intent, status: 'requires_payment_method', payment_method: null, last_payment_error: error });
      throw new CardNetworkError('declined', answer.code, answer.message, declined, answer.declineCode);
    }
    if (answer.kind === 'authenticate') {
      return this.save({ ...intent, status: 'requires_action', payment_method: paymentMethod, last_payment_error: null });
    }
    return this.authorize(intent, paymentMethod);
  }

  /** The customer passes (or fails) 3-D Secure in the browser. */
  authenticate(id: string, passed: boolean): CardIntent {
    const intent = this.intent(id);
    if (intent.status !== 'requires_action') throw this.unexpected(intent, 'authenticate');
    if (passed) return this.authorize(intent, intent.payment_method ?? 'pm_card_authenticationRequired');
    const error = {
      code: 'payment_intent_authentication_failure',
      decline_code: 'authentication_failure',
      message: 'The provided PaymentMethod has failed authentication.',
      type: 'card_error',
    } as const;
    return this.save({ ...intent, status: 'requires_payment_method', payment_method: null, last_payment_error: error });
  }

  capture(id: string, amount?: number): CardIntent {
    const intent = this.intent(id);
    if (intent.status !== 'requires_capture') throw this.unexpected(intent, 'capture');
    const taken = amount ?? intent.amount_capturable;
    if (taken > intent.amount_capturable) {
      throw new CardNetworkError('refused', 'amount_too_large', `The amount to capture must be at most ${intent.amount_capturable}.`, intent);
    }
    return this.save({ ...intent, status: 'succeeded', amount_capturable: 0, amount_received: taken });
  }

  cancel(id: string, reason: string | null): CardIntent {
    const intent = this.intent(id);
    if (intent.status === 'succeeded' || intent.status === 'canceled') throw this.unexpected(intent, 'cancel');
    return this.save({ ...intent, status: 'canceled', amount_capturable: 0, cancellation_reason: reason ?? 'requested_by_customer' });
  }

  createRefund(input: { paymentIntent: string; amount?: number; reason: string | null; metadata: Readonly<Record<string, string>> }): CardRefund {
    const intent = this.intent(input.paymentIntent);
    if (intent.status !== 'succeeded' || intent.latest_charge === null) {
      throw new CardNetworkError(
        'refused',
        'payment_intent_unexpected_state',
        `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        intent,
      );
    }
    const left = intent.amount_received - intent.amount_refunded;
    const amount = input.amount ?? left;
    if (left === 0) throw new CardNetworkError('refused', 'charge_already_refunded', `Charge ${intent.latest_charge} has already been refunded.`, intent);
    if (amount > left) {
      throw new CardNetworkError('refused', 'amount_too_large', `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, intent);
    }
    const refund: CardRefund = {
      id: `re_${token()}`,
      amount,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      status: 'succeeded',
      reason: input.reason,
      metadata: { ...input.metadata },
      created: Math.floor(this.now() / 1000),
    };
    this.refunds.set(refund.id, refund);
    this.save({ ...intent, amount_refunded: intent.amount_refunded + amount });
    return refund;
  }

  private authorize(intent: CardIntent, paymentMethod: string): CardIntent {
    return this.save({
      ...intent,
      status: 'requires_capture',
      payment_method: paymentMethod,
      last_payment_error: null,
      amount_capturable: intent.amount,
      latest_charge: `ch_${token()}`,
      authorized_until: this.now() + this.windowMs,
    });
  }

  private unexpected(intent: CardIntent, action: string): CardNetworkError {
    return new CardNetworkError(
      'refused',
      'payment_intent_unexpected_state',
      `You cannot ${action} this PaymentIntent because it has a status of ${intent.status}.`,
      intent,
    );
  }

  /**
   * The card's bank sends a succeeded refund back (a closed or lost card): the refund turns `failed`
   * and its amount is refundable again, as Stripe's failed refunds do.
   */
  failRefund(id: string): CardRefund {
    const refund = this.refund(id);
    if (refund.status === 'failed') return refund;
    const failed: CardRefund = { ...refund, status: 'failed' };
    this.refunds.set(id, failed);
    const intent = this.intent(refund.payment_intent);
    this.save({ ...intent, amount_refunded: intent.amount_refunded - refund.amount });
    return failed;
  }

  private save(intent: CardIntent): CardIntent {
    this.intents.set(intent.id, intent);
    return intent;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
