/**
 * Port: the areas the store delivers to. Pure (no I/O): an adapter loads the zones once (GeoJSON,
 * see @storefront/adapters-zones) and answers point lookups from memory.
 */

/** A delivery zone: its name, the delivery fee and the least the items must come to (minor units). */
export interface DeliveryZone {
  readonly name: string;
  readonly fee: number;
  readonly minimumOrder: number;
}

export interface DeliveryZones {
  /** Every zone that contains the point (WGS 84 degrees), in no particular order; empty outside all. */
  lookup(lat: number, lng: number): readonly DeliveryZone[];
}

/** Of the zones containing an address, the one that is charged: the lowest fee, then the lowest minimum, then by name. */
export function cheapestZone(zones: readonly DeliveryZone[]): DeliveryZone | null {
  let best: DeliveryZone | null = null;
  for (const zone of zones) {
    if (best === null || zone.fee < best.fee || (zone.fee === best.fee && (zone.minimumOrder < best.minimumOrder || (zone.minimumOrder === best.minimumOrder && zone.name < best.name)))) {
      best = zone;
    }
  }
  return best;
}
