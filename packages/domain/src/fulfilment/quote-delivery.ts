import { DomainError } from '../shared/errors.js';
import { Issues } from '../shared/validation.js';
import type { DeliveryZone } from './delivery-zones.js';
import type { FulfilmentPlanner } from './fulfilment-planner.js';

/** `GET /api/store/delivery-quote`: the zone, fee and minimum order for a point, or why not. */
export class QuoteDelivery {
  constructor(private readonly planner: FulfilmentPlanner) {}

  execute(input: { readonly lat: unknown; readonly lng: unknown }): DeliveryZone {
    const issues = new Issues();
    const inRange = (value: unknown, bound: number): value is number =>
      typeof value === 'number' && Number.isFinite(value) && value >= -bound && value <= bound;
    if (!inRange(input.lat, 90)) issues.add('lat', 'is required: a number of degrees from -90 to 90 (WGS 84)');
    if (!inRange(input.lng, 180)) issues.add('lng', 'is required: a number of degrees from -180 to 180 (WGS 84)');
    issues.throwIfAny();
    try {
      return this.planner.quote(input.lat as number, input.lng as number);
    } catch (error) {
      // The same refusal as an order's, about the query's point rather than an order's address.
      if (error instanceof DomainError && error.code === 'outside_delivery_area') {
        throw new DomainError(error.code, error.message, { details: [{ path: 'lat', message: 'this point is outside every delivery zone' }] });
      }
      throw error;
    }
  }
}
