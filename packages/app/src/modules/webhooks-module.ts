/**
 * Outgoing webhooks: the HTTP sender and the URL policy of @storefront/adapters-webhooks, set by
 * WEBHOOK_TIMEOUT_MS, WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE. The stores come from the store
 * module (memory, MongoDB or PostgreSQL); the sender's keep-alive connections are closed with the
 * container.
 */
import { createWebhookSender, createWebhookUrlPolicy, type HttpWebhookSender } from '@storefront/adapters-webhooks';
import { ContainerModule } from 'inversify';
import type { StorefrontConfig } from '../config.js';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';

export function webhooksModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<HttpWebhookSender>(TYPES.WebhookSender)
      .toResolvedValue((config: StorefrontConfig) => createWebhookSender(config.webhooks), [TYPES.Config])
      .inSingletonScope()
      .onDeactivation((sender) => sender.close());
    bindFactory(bind, TYPES.WebhookUrlPolicy, [TYPES.Config], (config) => createWebhookUrlPolicy(config.webhooks));
  });
}
