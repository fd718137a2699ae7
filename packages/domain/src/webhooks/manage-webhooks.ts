/**
 * ManageWebhooks: what an admin does with webhook endpoints (WebhookAdministration; the routes under
 * `/api/admin/webhooks` and the CLI call it). Every input is checked here, whoever calls: the URL
 * (absolute, https unless allowed, no credentials, bounded, then the address rules), the events
 * (a non-empty subset, default all), the description (bounded).
 */
import { DomainError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/page.js';
import { checkText } from '../shared/text.js';
import { characterCount, Issues } from '../shared/validation.js';
import type { Clock } from '../shared/security.js';
import { resolvePage } from '../shared/paging.js';
import type { AddWebhookInput, ChangeWebhookInput, WebhookAdministration, WebhookWithSecret } from './admin.js';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from './model.js';
import type {
  DeliveryListRequest,
  WebhookDeliveryLog,
  WebhookDeliveryQueue,
  WebhookDeliveryUpkeep,
  WebhookEndpointChanges,
  WebhookEndpointStore,
  WebhookUrlPolicy,
} from './ports.js';
import { checkWebhookUrl } from './webhook-url.js';
import { newSecretText, rotatedSecrets } from './webhook-secrets.js';
import { testWebhookEvent } from './webhook-events.js';

export interface ManageWebhooksDependencies {
  readonly endpoints: WebhookEndpointStore;
  /** The test event's delivery. */
  readonly queue: Pick<WebhookDeliveryQueue, 'enqueue'>;
  readonly log: WebhookDeliveryLog;
  /** A removed endpoint's deliveries go with it. */
  readonly upkeep: Pick<WebhookDeliveryUpkeep, 'removeEndpoint'>;
  /** The address rules (private, loopback…) at registration; the sender checks them again per delivery. */
  readonly urlPolicy: WebhookUrlPolicy;
  readonly clock: Clock;
  /** `http://` URLs allowed (WEBHOOK_ALLOW_HTTP: tests, demos); default https only. */
  readonly allowHttp?: boolean;
  /** Told after every change: the endpoint cache is dropped and the dispatcher woken. */
  readonly changed?: () => void;
}

export class ManageWebhooks implements WebhookAdministration {
  private readonly changed: () => void;

  constructor(private readonly deps: ManageWebhooksDependencies) {
    this.changed = deps.changed ?? (() => undefined);
  }

  async add(input: AddWebhookInput): Promise<WebhookWithSecret> {
    const issues = new Issues();
    const url = checkWebhookUrl(input.url, this.deps.allowHttp === true, issues);
    const events = input.events === undefined ? [...WEBHOOK_EVENT_TYPES] : eventsOf(input.events, issues);
    const description = input.description === undefined ? '' : descriptionOf(input.description, issues);
    issues.throwIfAny();
    await this.checkAddress(url);
    const now = this.deps.clock.now();
    const secret = newSecretText();
    const endpoint: WebhookEndpoint = {
      webhookId: newId('whk'),
      url,
      events,
      description,
      enabled: true,
      secrets: [{ secret, createdAt: now }],
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.endpoints.create(endpoint);
    this.changed();
    return { endpoint, secret };
  }

  list(): Promise<WebhookEndpoint[]> {
    return this.deps.endpoints.list();
  }

  async get(webhookId: string): Promise<WebhookEndpoint> {
    return (await this.deps.endpoints.get(webhookId)) ?? notFound(webhookId);
  }

  async change(webhookId: string, input: ChangeWebhookInput): Promise<WebhookEndpoint> {
    const issues = new Issues();
    const url = input.url === undefined ? undefined : checkWebhookUrl(input.url, this.deps.allowHttp === true, issues);
    const events = input.events === undefined ? undefined : eventsOf(input.events, issues);
    const description = input.description === undefined ? undefined : descriptionOf(input.description, issues);
    if (input.enabled !== undefined && typeof input.enabled !== 'boolean') issues.add('enabled', 'must be true or false');
    issues.throwIfAny();
    await this.get(webhookId);
    if (url !== undefined) await this.checkAddress(url);
    const changes: WebhookEndpointChanges = {
      updatedAt: this.deps.clock.now(),
      ...(url === undefined ? {} : { url }),
      ...(events === undefined ? {} : { events }),
      ...(description === undefined ? {} : { description }),
      // Re-enabled: a fresh start for the 24 h failing rule, and what is pending is sent.
      ...(input.enabled === true ? { enabled: true, disabledReason: null, failingSince: null } : {}),
      ...(input.enabled === false ? { enabled: false, disabledReason: 'admin' } : {}),
    };
    const changed = (await this.deps.endpoints.update(webhookId, changes)) ?? notFound(webhookId);
    this.changed();
    return changed;
  }

  async remove(webhookId: string): Promise<void> {
    if (!(await this.deps.endpoints.remove(webhookId))) notFound(webhookId);
    this.changed();
    // After the endpoint: a delivery left by a failure here is never leased (its endpoint is gone).
    await this.deps.upkeep.removeEndpoint(webhookId);
  }

  async rotateSecret(webhookId: string): Promise<{ readonly secret: string }> {
    const endpoint = await this.get(webhookId);
    const now = this.deps.clock.now();
    const secret = newSecretText();
    const secrets = rotatedSecrets(endpoint.secrets, secret, now);
    if ((await this.deps.endpoints.update(webhookId, { secrets, updatedAt: now })) === null) notFound(webhookId);
    this.changed();
    return { secret };
  }

  async sendTest(webhookId: string): Promise<{ readonly deliveryId?: string; readonly eventId: string }> {
    await this.get(webhookId);
    const event = testWebhookEvent(webhookId, this.deps.clock.now());
    await this.deps.queue.enqueue(event, [webhookId]);
    this.changed();
    // The store makes the delivery id: the newest delivery of the endpoint is almost always it.
    const newest = await this.deps.log.list(webhookId, { page: 1, limit: 5 });
    const delivery = newest.items.find((item) => item.eventId === event.eventId);
    return delivery === undefined ? { eventId: event.eventId } : { eventId: event.eventId, deliveryId: delivery.deliveryId };
  }

  async deliveries(webhookId: string, request: DeliveryListRequest): Promise<Page<WebhookDelivery>> {
    const issues = new Issues();
    const page = resolvePage(request, issues);
    const status = request.status;
    if (status !== undefined && !WEBHOOK_DELIVERY_STATUSES.includes(status)) issues.add('status', `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}`);
    issues.throwIfAny();
    await this.get(webhookId);
    return this.deps.log.list(webhookId, status === undefined ? page : { ...page, status });
  }

  async retryDelivery(webhookId: string, deliveryId: string): Promise<void> {
    await this.get(webhookId);
    if (!(await this.deps.log.retry(webhookId, deliveryId, this.deps.clock.now()))) {
      throw new DomainError('not_found', `No delivery ${deliveryId} of webhook ${webhookId}.`);
    }
    this.changed();
  }

  private async checkAddress(url: string): Promise<void> {
    const refusal = await this.deps.urlPolicy.check(url);
    if (refusal !== null) throw new DomainError('validation_failed', `The webhook URL is refused: ${refusal}.`, { details: [{ path: 'url', message: refusal }] });
  }
}

function notFound(webhookId: string): never {
  throw new DomainError('not_found', `No webhook ${webhookId}.`);
}

/** The subscribed types in WEBHOOK_EVENT_TYPES order: a non-empty list of known types (repeats allowed, kept once). */
function eventsOf(events: unknown, issues: Issues): WebhookEventType[] {
  const known: readonly string[] = WEBHOOK_EVENT_TYPES;
  if (!Array.isArray(events) || events.length === 0 || events.length > 16 || !events.every((type) => typeof type === 'string' && known.includes(type))) {
    issues.add('events', `must be a non-empty list of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    return [];
  }
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}

function descriptionOf(description: unknown, issues: Issues): string {
  if (typeof description !== 'string' || characterCount(description) > WEBHOOK_LIMITS.descriptionMaxLength) {
    issues.add('description', `must be a string of at most ${WEBHOOK_LIMITS.descriptionMaxLength} characters`);
    return '';
  }
  return checkText(description, 'line', 'description', issues) ? description.trim() : '';
}
