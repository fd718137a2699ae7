/**
 * `storefront webhooks …`: the operator's side of outgoing webhooks, through the same
 * WebhookAdministration as /api/admin/webhooks (so the same checks, address rules included). The
 * secret is printed once, on `add`: it is never shown again.
 */
import { type Storefront, WEBHOOK_EVENT_TYPES, type WebhookAdministration } from '@storefront/domain';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus, type WebhookEventType } from '@storefront/domain/adapter-kit';
import { parseArgs } from 'node:util';
import { CliError, type CliIo } from './cli-io.js';

export const WEBHOOKS_USAGE = `  webhooks add <url> [--events order.placed,order.status] [--description <text>]
                                           register an endpoint (default: every event); prints its
                                           signing secret, shown only this once
  webhooks list                            every endpoint: id, enabled, events, url
  webhooks remove <webhook_id>             remove an endpoint and its deliveries
  webhooks deliveries <webhook_id> [--status pending|delivered|failed] [--page n]
                                           an endpoint's deliveries, newest first`;

export async function runWebhooks(storefront: Storefront, action: string | undefined, args: readonly string[], io: CliIo): Promise<boolean> {
  const admin = storefront.webhooks;
  if (action !== 'add' && action !== 'list' && action !== 'remove' && action !== 'deliveries') return false;
  if (admin === undefined) throw new CliError('webhooks are not set up with this store');
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { events: { type: 'string' }, description: { type: 'string' }, status: { type: 'string' }, page: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const expected = action === 'list' ? 0 : 1;
  if (positionals.length !== expected) throw new CliError(`webhooks ${action} needs ${expected === 0 ? 'no argument' : action === 'add' ? '<url>' : '<webhook_id>'}`, 2);
  const [target] = positionals;
  if (action === 'add') await add(admin, target!, values, io);
  else if (action === 'list') await list(admin, io);
  else if (action === 'remove') {
    await admin.remove(target!);
    io.out(`removed ${target}`);
  } else await deliveries(admin, target!, values, io);
  return true;
}

async function add(admin: WebhookAdministration, url: string, values: { events?: string | undefined; description?: string | undefined }, io: CliIo): Promise<void> {
  const events = values.events === undefined ? undefined : values.events.split(',').map((name) => eventType(name.trim()));
  const { endpoint, secret } = await admin.add({ url, ...(events === undefined ? {} : { events }), ...(values.description === undefined ? {} : { description: values.description }) });
  io.out(`added ${endpoint.webhookId} ${endpoint.url} (${endpoint.events.join(',')})`);
  io.out(`secret: ${secret}`);
  io.out('the secret is shown only now: give it to the receiver (it verifies webhook-signature with it)');
}

async function list(admin: WebhookAdministration, io: CliIo): Promise<void> {
  const endpoints = await admin.list();
  for (const w of endpoints) {
    const state = w.enabled ? 'enabled ' : `disabled (${w.disabledReason ?? 'admin'})`;
    io.out(`${w.webhookId}  ${state}  ${w.events.join(',')}  ${w.url}${w.description === '' ? '' : `  ${w.description}`}`);
  }
  io.out(`${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'}`);
}

async function deliveries(admin: WebhookAdministration, webhookId: string, values: { status?: string | undefined; page?: string | undefined }, io: CliIo): Promise<void> {
  const status = values.status === undefined ? undefined : deliveryStatus(values.status);
  const page = values.page === undefined ? 1 : positiveInteger('--page', values.page);
  const result = await admin.deliveries(webhookId, { page, limit: 50, ...(status === undefined ? {} : { status }) });
  for (const d of result.items) {
    const last = d.lastStatusCode !== undefined ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '-');
    const when = d.status === 'pending' ? `next ${d.nextAttemptAt?.toISOString() ?? '-'}` : d.status === 'delivered' ? `at ${d.deliveredAt?.toISOString() ?? '-'}` : '';
    io.out(`${d.deliveryId}  ${d.status.padEnd(9)}  ${d.type.padEnd(12)}  attempts ${d.attempts}  ${last}  ${when}  ${d.eventId}`);
  }
  io.out(`${result.items.length} of ${result.total} deliveries (page ${result.page}${result.nextPage === null ? '' : `; next: --page ${result.nextPage}`})`);
}

function eventType(name: string): WebhookEventType {
  const type = WEBHOOK_EVENT_TYPES.find((candidate) => candidate === name);
  if (type === undefined) throw new CliError(`--events must list ${WEBHOOK_EVENT_TYPES.join(', ')}; got "${name}"`, 2);
  return type;
}

function deliveryStatus(name: string): WebhookDeliveryStatus {
  const status = WEBHOOK_DELIVERY_STATUSES.find((candidate) => candidate === name);
  if (status === undefined) throw new CliError(`--status must be ${WEBHOOK_DELIVERY_STATUSES.join(', ')}; got "${name}"`, 2);
  return status;
}

function positiveInteger(flag: string, value: string): number {
  if (!/^[1-9]\d{0,14}$/.test(value)) throw new CliError(`${flag} must be a positive integer, got "${value}"`, 2);
  return Number(value);
}
