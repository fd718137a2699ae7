/**
 * Webhook endpoints in process memory. Every method runs without awaiting between its read and its
 * write, so `markFailing` is the one conditional write the port asks for. Answers are copies: a
 * caller changing one changes nothing stored.
 */
import type { WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointStore } from '@storefront/domain';

function copy(endpoint: WebhookEndpoint): WebhookEndpoint {
  const { disabledReason, failingSince } = endpoint;
  return {
    webhookId: endpoint.webhookId,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    enabled: endpoint.enabled,
    ...(disabledReason === undefined ? {} : { disabledReason }),
    secrets: endpoint.secrets.map(({ secret, createdAt, expiresAt }) => ({
      secret,
      createdAt: new Date(createdAt),
      ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt) }),
    })),
    ...(failingSince === undefined ? {} : { failingSince: new Date(failingSince) }),
    createdAt: new Date(endpoint.createdAt),
    updatedAt: new Date(endpoint.updatedAt),
  };
}

/** `endpoint` with `changes` applied (a null clears its field). */
function applyChanges(endpoint: WebhookEndpoint, changes: WebhookEndpointChanges): WebhookEndpoint {
  const { disabledReason: reason, failingSince: since, ...rest } = endpoint;
  const disabledReason = changes.disabledReason === undefined ? reason : (changes.disabledReason ?? undefined);
  const failingSince = changes.failingSince === undefined ? since : (changes.failingSince ?? undefined);
  return {
    ...rest,
    url: changes.url ?? endpoint.url,
    events: changes.events ?? endpoint.events,
    description: changes.description ?? endpoint.description,
    enabled: changes.enabled ?? endpoint.enabled,
    secrets: changes.secrets ?? endpoint.secrets,
    updatedAt: changes.updatedAt,
    ...(disabledReason === undefined ? {} : { disabledReason }),
    ...(failingSince === undefined ? {} : { failingSince }),
  };
}

export class InMemoryWebhookEndpointStore implements WebhookEndpointStore {
  private readonly endpoints = new Map<string, WebhookEndpoint>();

  async create(endpoint: WebhookEndpoint): Promise<void> {
    this.endpoints.set(endpoint.webhookId, copy(endpoint));
  }

  async get(webhookId: string): Promise<WebhookEndpoint | null> {
    const endpoint = this.endpoints.get(webhookId);
    return endpoint === undefined ? null : copy(endpoint);
  }

  async list(): Promise<WebhookEndpoint[]> {
    return [...this.endpoints.values()]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.webhookId < b.webhookId ? -1 : 1))
      .map(copy);
  }

  async update(webhookId: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | null> {
    const endpoint = this.endpoints.get(webhookId);
    if (endpoint === undefined) return null;
    const changed = copy(applyChanges(endpoint, changes));
    this.endpoints.set(webhookId, changed);
    return copy(changed);
  }

  async markFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null> {
    const endpoint = this.endpoints.get(webhookId);
    if (endpoint === undefined) return null;
    if (endpoint.failingSince !== undefined) return copy(endpoint);
    return this.update(webhookId, { failingSince: at, updatedAt: endpoint.updatedAt });
  }

  async remove(webhookId: string): Promise<boolean> {
    return this.endpoints.delete(webhookId);
  }
}
