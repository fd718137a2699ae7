/**
 * @storefront/adapters-webhooks: outgoing webhooks over HTTP. `createWebhookSender` is the
 * WebhookSender port (Standard Webhooks signatures, node:http/https on a worker thread, time-out,
 * no redirects, the address rules at connect time); `createWebhookUrlPolicy` is the
 * WebhookUrlPolicy port (the same rules at registration).
 */
export { createWebhookSender, type HttpWebhookSender, type WebhookSenderOptions } from './create-webhook-sender.js';
export { createWebhookUrlPolicy, type WebhookUrlPolicyOptions } from './url-policy.js';
export { refusedAddress } from './address-rules.js';
export { signatureHeader } from './signature.js';
