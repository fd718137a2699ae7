/**
 * Fulfilment as the store decides it: the delivery zone and fee of an address, the minimum order,
 * and the slot an order is promised for, with its place taken when slots have a capacity. Placing
 * an order calls `charges` once the items are priced and `promise` last, after every other check,
 * so that a refused order never holds a place.
 */
import { DomainError } from '../shared/errors.js';
import type { FulfilmentRequest, FulfilmentType } from './fulfilment.js';
import { cheapestZone, type DeliveryZone, type DeliveryZones } from './delivery-zones.js';
import type { OpeningHours } from '../store/opening-hours.js';
import type { Clock } from '../shared/security.js';
import type { SlotPlaces } from './slot-places.js';
import { SlotGrid, type Slot } from './slot-grid.js';
import { SlotHolds, type PlacedOrders } from './slot-holds.js';
import { refusalMessage, refusalOf, slotWindow, type SlotRefusal, type SlotRules, type SlotWindow } from './slot-rules.js';

/** What delivery adds to an order. */
export interface Charges {
  readonly deliveryFee: number;
  readonly zone?: string;
}

export interface FulfilmentPlannerPorts {
  readonly hours: OpeningHours;
  readonly rules: SlotRules;
  readonly clock: Clock;
  /** Null: the store does not deliver. */
  readonly zones: DeliveryZones | null;
  /** Required when `rules.capacity` is set. */
  readonly places: SlotPlaces | null;
  /** Where a place's order is looked for when its lease has ended. */
  readonly orders: PlacedOrders;
}

export class FulfilmentPlanner {
  readonly grid: SlotGrid;
  /** Null when slots have no capacity. */
  private readonly holds: SlotHolds | null;

  constructor(private readonly ports: FulfilmentPlannerPorts) {
    if (ports.rules.capacity !== null && ports.places === null) throw new Error('slot capacity is set but no SlotPlaces store is given');
    this.grid = new SlotGrid(ports.hours, ports.rules.slotMinutes);
    this.holds = ports.rules.capacity === null ? null : new SlotHolds(ports.places!, ports.orders, ports.clock);
  }

  get rules(): SlotRules {
    return this.ports.rules;
  }

  /** The zone charged for an address: `delivery_unavailable`, `outside_delivery_area`, or the cheapest zone containing it. */
  quote(lat: number, lng: number): DeliveryZone {
    const { zones } = this.ports;
    if (zones === null) throw new DomainError('delivery_unavailable', 'This store does not deliver; order for pickup.');
    const zone = cheapestZone(zones.lookup(lat, lng));
    if (zone === null) {
      throw new DomainError('outside_delivery_area', 'The address is outside every delivery zone of the store.', {
        details: [{ path: 'fulfilment.address', message: 'is outside every delivery zone' }],
      });
    }
    return zone;
  }

  /** The delivery fee for items coming to `subtotal`, or `below_minimum_order`. */
  charges(request: FulfilmentRequest, subtotal: number): Charges {
    if (request.type === 'pickup' || request.address === undefined) return { deliveryFee: 0 };
    const zone = this.quote(request.address.lat, request.address.lng);
    if (subtotal < zone.minimumOrder) {
      throw new DomainError('below_minimum_order', `Delivery to zone ${zone.name} needs items worth at least ${zone.minimumOrder}.`, {
        details: [{ path: 'items', message: `come to ${subtotal}, below the minimum order of ${zone.minimumOrder} for zone ${zone.name}`, minimumOrder: zone.minimumOrder }],
      });
    }
    return { deliveryFee: zone.fee, zone: zone.name };
  }

  /**
   * The start of the slot `orderId` is promised for, its place taken (pending until `confirm`). `asap` takes the first
   * offered slot (the caller has checked that the store takes orders now); a chosen time takes the
   * slot that contains it, whether or not the store is open now.
   */
  async promise(request: FulfilmentRequest, orderId: string): Promise<Date> {
    const window = slotWindow(this.rules, request.type, this.ports.clock.now());
    if (request.time === 'asap') return this.firstOffered(window, orderId);
    const at = request.time.getTime();
    // Days away from the window (year 9999, say) are refused without cutting their day into slots.
    if (at < window.earliest.getTime() - DAY_MS || at > window.latest.getTime() + DAY_MS) {
      const instant = { start: request.time, end: request.time };
      throw slotUnavailable(refusalMessage(at < window.earliest.getTime() ? 'too_soon' : 'too_far', instant, window));
    }
    const slot = this.grid.slotAt(request.time);
    const refusal = refusalOf(slot, window, this.ports.hours);
    if (refusal !== null) throw slotUnavailable(refusalMessage(refusal, slot, window));
    if (!(await this.take(slot, orderId))) throw slotUnavailable(refusalMessage('full', slot, window));
    return slot.start;
  }

  /** The offered slots of `date` (the store's date), with the places left in each (null: no limit). */
  async offered(type: FulfilmentType, date: string): Promise<{ slot: Slot; remaining: number | null }[]> {
    const window = slotWindow(this.rules, type, this.ports.clock.now());
    // A day before today or past the horizon has no slot to offer: no grid is cut for it.
    if (date < this.grid.dateAt(this.ports.clock.now()) || date > this.grid.dateAt(window.latest)) return [];
    const slots = this.grid.slotsOf(date).filter((slot) => refusalOf(slot, window, this.ports.hours) === null);
    const { capacity } = this.rules;
    if (capacity === null || slots.length === 0) return slots.map((slot) => ({ slot, remaining: null }));
    const [from, to] = [slots[0]!.start, slots[slots.length - 1]!.end];
    await this.holds!.reclaim(from, to);
    const taken = await this.ports.places!.taken(from, to);
    return slots
      .map((slot) => ({ slot, remaining: capacity - (taken.get(slot.start.getTime()) ?? 0) }))
      .filter((offered) => offered.remaining > 0);
  }

  /** The order holding a place in the slot starting at `promisedAt` is stored: the place is its for good. */
  async confirm(promisedAt: Date, orderId: string): Promise<void> {
    const { capacity } = this.rules;
    if (this.holds !== null && capacity !== null) await this.holds.confirm(promisedAt, orderId, capacity);
  }

  /** Gives back the place an order held (cancelled or rejected). */
  async release(promisedAt: Date, orderId: string): Promise<void> {
    if (this.ports.places !== null) await this.ports.places.release(promisedAt, orderId);
  }

  private async firstOffered(window: SlotWindow, orderId: string): Promise<Date> {
    const { hours } = this.ports;
    let slot = this.grid.slotAt(window.earliest);
    if (slot.start < window.earliest) slot = this.grid.next(slot);
    let refusal: SlotRefusal | null = null;
    while (slot.start <= window.latest) {
      refusal = refusalOf(slot, window, hours);
      if (refusal === null) {
        if (await this.take(slot, orderId)) return slot.start;
        refusal = 'full';
        slot = this.grid.next(slot);
      } else {
        // Closed: skip to when the store opens again, not slot by slot through the night.
        const opens = hours.nextChange(slot.start);
        if (opens === null) break;
        const next = this.grid.slotAt(opens);
        slot = next.start < opens ? this.grid.next(next) : next;
      }
    }
    const why = refusal === 'full' ? 'every slot is full' : 'the store is closed';
    throw slotUnavailable(`no slot is offered until ${window.latest.toISOString()}: ${why}`);
  }

  private async take(slot: Slot, orderId: string): Promise<boolean> {
    const { capacity } = this.rules;
    return capacity === null || this.holds!.take(slot.start, orderId, capacity);
  }
}

const DAY_MS = 86_400_000;

function slotUnavailable(message: string): DomainError {
  return new DomainError('slot_unavailable', 'The time asked for is not offered.', { details: [{ path: 'fulfilment.time', message }] });
}
