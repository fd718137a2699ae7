/**
 * Outgoing webhooks, admin only (DECISIONS "Webhooks (outgoing)"): the endpoints under
 * /api/admin/webhooks, their secret rotation, a test event, and their deliveries with a retry. The
 * document checks the shapes; WebhookAdministration checks the rest (the URL's address rules
 * among them) and its errors map as every domain error does.
 */
import { DomainError, type WebhookAdministration } from '@storefront/domain';
import { PAGING } from '@storefront/domain/adapter-kit';
import { pageMeta } from '../mappers.js';
import { empty, json } from '../reply.js';
import { del, get, patch, post, type Route } from '../route.js';
import { webhookDeliveryJson, webhookJson } from '../webhook-json.js';

const NO_STORE = ['Cache-Control', 'no-store'];
const ADMIN = { access: 'admin' } as const;
/** Registration makes a new endpoint each time: after a failure, look before adding again. */
const ADD_RETRY = 'The endpoint may have been registered: check GET /api/admin/webhooks before adding it again.';
const SAME_AGAIN = 'It is safe to retry: the same request again leaves the endpoint as asked.';
const ROTATE_RETRY = 'A rotation may have happened: rotating again makes another secret, and the one before keeps signing for 24 h.';
const QUEUE_RETRY = 'It is safe to retry: at worst the receiver gets one more request (receivers de-duplicate on webhook-id).';

export function webhookRoutes(webhooks: WebhookAdministration | undefined): Route[] {
  const admin = (): WebhookAdministration => {
    if (webhooks === undefined) throw new DomainError('not_found', 'Webhooks are not set up on this service.');
    return webhooks;
  };
  return [
    post('/api/admin/webhooks', 'createWebhook', { ...ADMIN, retry: ADD_RETRY }, async (_exchange, { body }) => {
      const { endpoint, secret } = await admin().add({
        url: body.url,
        ...(body.events === undefined ? {} : { events: body.events }),
        ...(body.description === undefined ? {} : { description: body.description }),
      });
      return json(201, { ...webhookJson(endpoint), secret }, NO_STORE);
    }),

    get('/api/admin/webhooks', 'listWebhooks', async () => json(200, { webhooks: (await admin().list()).map(webhookJson) }, NO_STORE), ADMIN),

    get('/api/admin/webhooks/:webhook_id', 'getWebhook', async (_exchange, { params }) => json(200, webhookJson(await admin().get(params.webhook_id)), NO_STORE), ADMIN),

    patch('/api/admin/webhooks/:webhook_id', 'changeWebhook', { ...ADMIN, retry: SAME_AGAIN }, async (_exchange, { params, body }) => {
      const endpoint = await admin().change(params.webhook_id, {
        ...(body.url === undefined ? {} : { url: body.url }),
        ...(body.events === undefined ? {} : { events: body.events }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      });
      return json(200, webhookJson(endpoint), NO_STORE);
    }),

    del('/api/admin/webhooks/:webhook_id', 'deleteWebhook', { ...ADMIN, retry: 'It is safe to retry: once removed, it is 404.' }, async (_exchange, { params }) => {
      await admin().remove(params.webhook_id);
      return empty(204, NO_STORE);
    }),

    post('/api/admin/webhooks/:webhook_id/rotate-secret', 'rotateWebhookSecret', { ...ADMIN, retry: ROTATE_RETRY }, async (_exchange, { params }) =>
      json(200, await admin().rotateSecret(params.webhook_id), NO_STORE),
    ),

    post('/api/admin/webhooks/:webhook_id/test', 'sendTestWebhook', { ...ADMIN, retry: QUEUE_RETRY }, async (_exchange, { params }) => {
      const queued = await admin().sendTest(params.webhook_id);
      return json(202, { event_id: queued.eventId, ...(queued.deliveryId === undefined ? {} : { delivery_id: queued.deliveryId }) }, NO_STORE);
    }),

    get(
      '/api/admin/webhooks/:webhook_id/deliveries',
      'listWebhookDeliveries',
      async (_exchange, { params, query }) => {
        const page = await admin().deliveries(params.webhook_id, {
          ...(query.status === undefined ? {} : { status: query.status }),
          page: query.page ?? 1,
          limit: query.limit ?? PAGING.defaultLimit,
        });
        return json(200, { meta: pageMeta(page), deliveries: page.items.map(webhookDeliveryJson) }, NO_STORE);
      },
      ADMIN,
    ),

    post('/api/admin/webhooks/:webhook_id/deliveries/:delivery_id/retry', 'retryWebhookDelivery', { ...ADMIN, retry: QUEUE_RETRY }, async (_exchange, { params }) => {
      await admin().retryDelivery(params.webhook_id, params.delivery_id);
      return json(202, { delivery_id: params.delivery_id, status: 'pending' }, NO_STORE);
    }),
  ];
}
