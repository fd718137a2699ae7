/**
 * The document's limits and the domain's rules are one rule written twice, for the HTTP check and
 * for embedders: this holds each pair to the other, so the two cannot drift.
 */
import { readFileSync } from 'node:fs';
import { DISPLAY_NAME_RULE, EMAIL_RULE, MONEY_RULE, ORDER_LIMITS, ORDER_STATUSES, PASSWORD_RULE, ROLES, TAX_RATE_RULE, WEBHOOK_EVENT_TYPES } from '@storefront/domain';
import { emailOf, ORDER_PAYMENT_STATUSES, PAGING, REASON_LIMITS, SEARCH_LIMITS, TEXT_RULE, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_LIMITS } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { parse } from 'yaml';
import { OPENAPI_PATH } from './document-path.js';

type Json = Record<string, unknown>;
const document = parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;
const at = (pointer: string): Json => pointer.split('/').slice(1).reduce<Json>((node, token) => node[token.replace(/~1/g, '/')] as Json, document);
const schema = (name: string): Json => at(`/components/schemas/${name}`);
const property = (name: string, field: string): Json => (schema(name)['properties'] as Record<string, Json>)[field]!;
const queryParameter = (path: string, name: string): Json =>
  ((at(`/paths/${path.replace(/\//g, '~1')}/get`)['parameters'] as Json[]).find((p) => p['name'] === name)!['schema'] as Json);

describe('packages/adapters-http/openapi.yaml and the domain hold the same rules', () => {
  it('order lines: 1 to 50 lines, quantities 1 to 99, ids of 1 to 64 characters, options at most 1000', () => {
    expect(property('OrderRequest', 'items')).to.include({ minItems: ORDER_LIMITS.minLines, maxItems: ORDER_LIMITS.maxLines });
    expect(property('OrderRequestLine', 'quantity')).to.include({ minimum: ORDER_LIMITS.minQuantity, maximum: ORDER_LIMITS.maxQuantity });
    expect(property('OrderRequestLine', 'product_id')).to.include({ minLength: 1, maxLength: ORDER_LIMITS.maxIdLength });
    const options = property('OrderRequestLine', 'options');
    expect(options).to.include({ maxItems: ORDER_LIMITS.maxOptionsPerLine, uniqueItems: true });
    expect(options['items']).to.include({ minLength: 1, maxLength: ORDER_LIMITS.maxIdLength });
  });

  it('passwords: 8 to 128 chosen, up to 1024 given', () => {
    for (const [name, field] of [['RegisterRequest', 'password'], ['PasswordResetConfirmRequest', 'password']] as const) {
      expect(property(name, field), name).to.include({ minLength: PASSWORD_RULE.minLength, maxLength: PASSWORD_RULE.maxLength });
    }
    for (const name of ['LoginRequest', 'DeleteAccountRequest']) {
      expect(property(name, 'password'), name).to.include({ minLength: 1, maxLength: PASSWORD_RULE.maxGivenLength });
    }
  });

  it('names, reasons, search and paging', () => {
    expect(property('RegisterRequest', 'name')).to.include({ minLength: DISPLAY_NAME_RULE.minLength, maxLength: DISPLAY_NAME_RULE.maxLength });
    expect(property('OrderMoveRequest', 'reason')).to.include({ minLength: REASON_LIMITS.minLength, maxLength: REASON_LIMITS.maxLength });
    expect(queryParameter('/api/search', 'q')).to.include({ maxLength: SEARCH_LIMITS.maxQueryLength });
    expect(at('/components/parameters/Page/schema')).to.include({ minimum: 1, maximum: PAGING.maxPage });
    expect(schema('PageMeta')['properties']).to.have.nested.property('per_page.maximum', PAGING.maxLimit);
  });

  it('statuses, roles and money', () => {
    expect(schema('OrderStatus')['enum']).to.deep.equal([...ORDER_STATUSES]);
    expect(property('Customer', 'role')['enum']).to.deep.equal([...ROLES]);
    expect(schema('Money')).to.include({ minimum: MONEY_RULE.minimum });
  });

  it('payments: the payment statuses, and a refund\'s amount and reason', () => {
    expect(schema('PaymentStatus')['enum']).to.deep.equal([...ORDER_PAYMENT_STATUSES]);
    expect(property('Payment', 'status')).to.deep.equal({ $ref: '#/components/schemas/PaymentStatus' });
    expect(property('RefundRequest', 'amount')).to.include({ type: 'integer', minimum: 1, maximum: MONEY_RULE.maximum });
    expect(property('RefundRequest', 'reason')).to.include({ minLength: REASON_LIMITS.minLength, maxLength: REASON_LIMITS.maxLength });
    expect(property('Refund', 'reason')).to.include({ minLength: REASON_LIMITS.minLength, maxLength: REASON_LIMITS.maxLength });
  });

  it('taxes: a rate is the domain\'s TAX_RATE_RULE wherever the document shows one', () => {
    expect(schema('TaxRate')).to.include({ type: 'integer', minimum: TAX_RATE_RULE.minimum, maximum: TAX_RATE_RULE.maximum });
    const rateRef = { $ref: '#/components/schemas/TaxRate' };
    expect(property('Product', 'tax_rate')['allOf']).to.deep.equal([rateRef]);
    expect(property('OrderLine', 'tax_rate')['allOf']).to.deep.equal([rateRef]);
    expect(property('TaxLine', 'rate')).to.deep.equal(rateRef);
  });

  it('webhooks: URL and description lengths, event types and delivery statuses', () => {
    expect(schema('WebhookUrl')).to.include({ minLength: 1, maxLength: WEBHOOK_LIMITS.urlMaxLength });
    expect(schema('WebhookDescription')).to.include({ maxLength: WEBHOOK_LIMITS.descriptionMaxLength });
    expect(schema('WebhookEventType')['enum']).to.deep.equal([...WEBHOOK_EVENT_TYPES]);
    expect(schema('WebhookEvents')).to.include({ minItems: 1, uniqueItems: true });
    expect(schema('WebhookDeliveryStatus')['enum']).to.deep.equal([...WEBHOOK_DELIVERY_STATUSES]);
    expect(property('WebhookDelivery', 'type')['enum']).to.deep.equal([...WEBHOOK_EVENT_TYPES, 'webhook.test']);
  });

  it('emails: the sign-up pattern is the domain\'s address rule, with blanks around it allowed', () => {
    const email = property('RegisterRequest', 'email');
    expect(email['pattern']).to.equal(`^\\s*(?:${EMAIL_RULE.pattern})\\s*$`);
    expect(email['maxLength']).to.equal(EMAIL_RULE.maxLength);
    const documented = new RegExp(email['pattern'] as string, 'u');
    const samples = ['alice@example.com', ' Bob+tag@Example.COM ', 'josé@exämple.de', "o'brien@x.test", 'alice@example.com\u0000', 'z2<victim@evil.test>', 'root,postmaster,z1@x.test', 'a b@x.test', '"q"@x.test', 'a..b@x.test', 'a@x', 'a@-x.test', 'a;b@x.test'];
    for (const sample of samples) expect(documented.test(sample), JSON.stringify(sample)).to.equal(emailOf(sample) !== undefined);
  });

  it('text: the three text schemas are the domain\'s patterns, and every free-text field of a request uses the right one', () => {
    expect(schema('StorableText')['pattern']).to.equal(TEXT_RULE.storable.pattern);
    expect(schema('TextLine')['pattern']).to.equal(TEXT_RULE.line.pattern);
    expect(schema('TextLines')['pattern']).to.equal(TEXT_RULE.lines.pattern);
    const uses = (node: Json, name: string): boolean => (node['allOf'] as Json[] | undefined)?.[0]?.['$ref'] === `#/components/schemas/${name}`;
    const items = property('OrderRequestLine', 'options')['items'] as Json;
    for (const [node, name, where] of [
      [property('OrderRequestLine', 'product_id'), 'StorableText', 'product_id'],
      [items, 'StorableText', 'options'],
      [property('RegisterRequest', 'password'), 'StorableText', 'register password'],
      [property('PasswordResetConfirmRequest', 'password'), 'StorableText', 'reset password'],
      [property('RegisterRequest', 'name'), 'TextLine', 'name'],
      [property('OrderMoveRequest', 'reason'), 'TextLine', 'reason'],
      [property('RefundRequest', 'reason'), 'TextLine', 'refund reason'],
      [property('DeliveryAddress', 'line1'), 'TextLine', 'line1'],
      [property('DeliveryAddress', 'line2'), 'TextLine', 'line2'],
      [property('DeliveryAddress', 'city'), 'TextLine', 'city'],
      [property('DeliveryAddress', 'postal_code'), 'TextLine', 'postal_code'],
      [property('DeliveryAddress', 'instructions'), 'TextLines', 'instructions'],
      [schema('WebhookUrl'), 'TextLine', 'webhook url'],
      [schema('WebhookDescription'), 'TextLine', 'webhook description'],
    ] as const) {
      expect(uses(node, name), `${where} uses ${name}`).to.equal(true);
    }
  });
});
