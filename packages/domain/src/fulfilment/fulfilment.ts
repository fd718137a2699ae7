/**
 * How and when an order is handed over (DECISIONS "Fulfilment"): picked up or delivered, as soon
 * as possible or for a chosen slot. The order is promised for its slot's start.
 */

export type FulfilmentType = 'pickup' | 'delivery';

export const FULFILMENT_TYPES: readonly FulfilmentType[] = ['pickup', 'delivery'];

/** Where a delivery goes. The client geocodes; the server only checks the point against its zones. */
export interface DeliveryAddress {
  readonly line1: string;
  readonly line2?: string;
  readonly city: string;
  readonly postalCode: string;
  /** WGS 84 degrees. */
  readonly lat: number;
  readonly lng: number;
  readonly instructions?: string;
}

/** The fulfilment of a placed order. */
export interface Fulfilment {
  readonly type: FulfilmentType;
  /** What the customer asked for: `asap`, or the chosen instant (ISO 8601, UTC). */
  readonly time: string;
  /** The start of the slot the order is promised for. */
  readonly promisedAt: Date;
  /** Delivery only; gone once the customer's account is erased. */
  readonly address?: DeliveryAddress;
  /** Delivery only: the zone whose fee was charged. */
  readonly zone?: string;
}

/** What a client asks for (checked by `parseFulfilment`). */
export interface FulfilmentRequest {
  readonly type: FulfilmentType;
  /** `asap`, or a chosen instant. */
  readonly time: 'asap' | Date;
  readonly address?: DeliveryAddress;
}

/** The request of every order that names none: pickup, as soon as possible. */
export const PICKUP_ASAP: FulfilmentRequest = Object.freeze({ type: 'pickup', time: 'asap' });

/** The one table of the request's limits (the OpenAPI document states the same, and a test holds them together); optional fields, when given, are not empty either. */
export const FULFILMENT_LIMITS = {
  line1: { min: 1, max: 200 },
  line2: { min: 1, max: 200 },
  city: { min: 1, max: 100 },
  postalCode: { min: 1, max: 20 },
  instructions: { min: 1, max: 300 },
  /** Tip in minor units. */
  tip: { min: 0, max: 100_000 },
} as const;

/** An order stored before fulfilment existed reads as this: pickup, promised when it was placed. */
export function legacyFulfilment(createdAt: Date): Fulfilment {
  return { type: 'pickup', time: 'asap', promisedAt: createdAt };
}

/** A copy of an address with its own fields only, in their order: what a store keeps of a caller's object. */
export function copyDeliveryAddress(a: DeliveryAddress): DeliveryAddress {
  return {
    line1: a.line1,
    ...(a.line2 === undefined ? {} : { line2: a.line2 }),
    city: a.city,
    postalCode: a.postalCode,
    lat: a.lat,
    lng: a.lng,
    ...(a.instructions === undefined ? {} : { instructions: a.instructions }),
  };
}
