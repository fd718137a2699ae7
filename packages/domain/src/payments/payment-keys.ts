/**
 * Idempotency keys for the payment provider, derived from what they act on so that a retry (of a
 * request, of a crashed process, of another instance) sends the same key: one order has one
 * intent, one capture and one cancellation; one refund record has one refund. Stripe keeps a key
 * at least 24 hours; after that the order's stored intent id is what prevents a second intent.
 */
export const paymentKeys = {
  authorize: (orderId: string): string => `storefront:${orderId}:authorize`,
  capture: (orderId: string): string => `storefront:${orderId}:capture`,
  /** The cancellation of an unpaid intent by us (`abandoned`: a lost placement, an expired window). */
  cancel: (orderId: string): string => `storefront:${orderId}:cancel`,
  /**
   * The void asked for by the kitchen or the customer (`requested_by_customer`): a key of its own, so
   * that it never reuses the expiry's key with another reason after that answer was lost.
   */
  void: (orderId: string): string => `storefront:${orderId}:void`,
  /** `refundId`: our record of the refund, made before the provider is called. */
  refund: (refundId: string): string => `storefront:${refundId}:refund`,
} as const;
