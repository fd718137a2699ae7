/**
 * The request half of fulfilment: `fulfilment` and `tip` as a client sends them, checked against
 * FULFILMENT_LIMITS (400 `validation_failed`, naming each field at fault).
 */
import { FULFILMENT_LIMITS, FULFILMENT_TYPES, PICKUP_ASAP, type DeliveryAddress, type FulfilmentRequest } from './fulfilment.js';
import { checkText, type TextKind } from '../shared/text.js';
import { characterCount, isIntegerIn, isRecord, type Issues } from '../shared/validation.js';
import { isCalendarDate } from './slot-grid.js';

/** RFC 3339 date-time (`T`/`Z` in either case, as the RFC allows); seconds required, fraction optional. */
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** A client's delivery address: the domain's fields (camelCase), values unchecked. */
export interface AddressInput {
  readonly line1?: unknown;
  readonly line2?: unknown;
  readonly city?: unknown;
  readonly postalCode?: unknown;
  readonly lat?: unknown;
  readonly lng?: unknown;
  readonly instructions?: unknown;
}

/** A client's fulfilment: values unchecked (a transport maps field names, never values). */
export interface FulfilmentInput {
  readonly type?: unknown;
  readonly time?: unknown;
  readonly address?: AddressInput | unknown;
}

/** The request's fulfilment: absent is pickup, as soon as possible. */
export function parseFulfilment(input: FulfilmentInput | undefined, issues: Issues): FulfilmentRequest {
  if (input === undefined) return PICKUP_ASAP;
  const type = input.type;
  if (typeof type !== 'string' || !(FULFILMENT_TYPES as readonly string[]).includes(type)) {
    issues.add('fulfilment.type', `is required: one of ${FULFILMENT_TYPES.join(', ')}`);
  }
  const time = parseTime(input.time, issues);
  if (type === 'delivery') {
    const address = parseAddress(input.address, issues);
    return address === null ? PICKUP_ASAP : { type, time, address };
  }
  if (input.address !== undefined) issues.add('fulfilment.address', 'is for delivery only');
  return { type: 'pickup', time };
}

/** The tip in minor units: absent is 0. */
export function parseTip(tip: unknown, issues: Issues): number {
  if (tip === undefined) return 0;
  const { min, max } = FULFILMENT_LIMITS.tip;
  if (!isIntegerIn(tip, min, max)) {
    issues.add('tip', `must be an integer from ${min} to ${max} (minor units)`);
    return 0;
  }
  return tip;
}

function parseTime(time: unknown, issues: Issues): 'asap' | Date {
  if (time === undefined || time === 'asap') return 'asap';
  const match = typeof time === 'string' ? RFC3339.exec(time) : null;
  // The calendar checked apart: Date.parse would roll 2025-02-30 over into March.
  if (match !== null && isCalendarDate(match[1]!)) {
    const ms = Date.parse((time as string).toUpperCase());
    if (Number.isFinite(ms)) return new Date(ms);
  }
  issues.add('fulfilment.time', 'must be "asap" or an RFC 3339 date-time with an offset (e.g. 2026-05-04T12:30:00+02:00)');
  return 'asap';
}

function parseAddress(address: unknown, issues: Issues): DeliveryAddress | null {
  if (!isRecord(address)) {
    issues.add('fulfilment.address', 'is required for delivery: its lines, city, postal code and coordinates');
    return null;
  }
  const before = issues.list.length;
  const text = (field: keyof typeof FULFILMENT_LIMITS & keyof AddressInput, path: string, required: boolean, kind: TextKind = 'line'): string | undefined => {
    const value = address[field];
    const { min, max } = FULFILMENT_LIMITS[field];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || characterCount(value) < min || characterCount(value) > max || value.trim() === '') {
      issues.add(`fulfilment.address.${path}`, `${required ? 'is required: ' : 'must be '}a string of ${min} to ${max} characters, not blank`);
      return undefined;
    }
    return checkText(value, kind, `fulfilment.address.${path}`, issues) ? value : undefined;
  };
  const line1 = text('line1', 'line1', true);
  const line2 = text('line2', 'line2', false);
  const city = text('city', 'city', true);
  const postalCode = text('postalCode', 'postalCode', true);
  // The one field meant to hold lines ("ring twice\nthird floor").
  const instructions = text('instructions', 'instructions', false, 'lines');
  const lat = coordinate(address['lat'], 90, 'lat', issues);
  const lng = coordinate(address['lng'], 180, 'lng', issues);
  if (issues.list.length > before) return null;
  return {
    line1: line1!,
    ...(line2 === undefined ? {} : { line2 }),
    city: city!,
    postalCode: postalCode!,
    lat: lat!,
    lng: lng!,
    ...(instructions === undefined ? {} : { instructions }),
  };
}

function coordinate(value: unknown, bound: number, name: string, issues: Issues): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= -bound && value <= bound) return value;
  issues.add(`fulfilment.address.${name}`, `is required: a number of degrees from ${-bound} to ${bound} (WGS 84)`);
  return undefined;
}

/** What the Idempotency-Key fingerprint adds for fulfilment and tip; null for pickup as soon as possible without a tip, so keys stored before fulfilment existed still match. */
export function fulfilmentFingerprint(request: FulfilmentRequest, tip: number): unknown {
  if (request.type === 'pickup' && request.time === 'asap' && tip === 0) return null;
  const time = request.time === 'asap' ? 'asap' : request.time.toISOString();
  const a = request.address;
  const address = a === undefined ? null : [a.line1, a.line2 ?? null, a.city, a.postalCode, a.lat, a.lng, a.instructions ?? null];
  return [request.type, time, address, tip];
}
