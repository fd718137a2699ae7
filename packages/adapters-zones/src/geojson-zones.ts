/**
 * Delivery zones from GeoJSON (RFC 7946): a FeatureCollection of Polygon or MultiPolygon features
 * with properties `{name, fee, minimum_order}` (minor units). Positions are `[lng, lat]`.
 *
 * A lookup first keeps the zones whose bounding box holds the point (a flat array of numbers,
 * scanned without allocating), then asks @turf/boolean-point-in-polygon about those only: a
 * point on a zone's edge is inside it. 1,000 zones of 100 vertices answer in a few microseconds.
 */
import type { DeliveryZone, DeliveryZones } from '@storefront/domain';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import { parseZoneFeatures, type ZoneFeature } from './zone-document.js';

export class GeoJsonDeliveryZones implements DeliveryZones {
  private readonly zones: readonly DeliveryZone[];
  private readonly geometries: readonly (Polygon | MultiPolygon)[];
  /** minLng, minLat, maxLng, maxLat per zone. */
  private readonly boxes: Float64Array;

  constructor(features: readonly ZoneFeature[]) {
    this.zones = features.map((f) => f.zone);
    this.geometries = features.map((f) => f.geometry);
    this.boxes = new Float64Array(features.length * 4);
    features.forEach((f, i) => this.boxes.set(boundingBox(f.geometry), i * 4));
  }

  /** The zones of a GeoJSON document; DeliveryZonesError names what is wrong with it. */
  static fromDocument(document: unknown): GeoJsonDeliveryZones {
    return new GeoJsonDeliveryZones(parseZoneFeatures(document));
  }

  get size(): number {
    return this.zones.length;
  }

  lookup(lat: number, lng: number): readonly DeliveryZone[] {
    const found: DeliveryZone[] = [];
    const boxes = this.boxes;
    for (let i = 0, b = 0; i < this.zones.length; i++, b += 4) {
      if (lng < boxes[b]! || lat < boxes[b + 1]! || lng > boxes[b + 2]! || lat > boxes[b + 3]!) continue;
      if (booleanPointInPolygon([lng, lat], this.geometries[i]!)) found.push(this.zones[i]!);
    }
    return found;
  }
}

function boundingBox(geometry: Polygon | MultiPolygon): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  // The outer rings bound the polygon; holes lie inside them.
  for (const polygon of polygons) {
    for (const [lng, lat] of polygon[0] ?? []) {
      box[0] = Math.min(box[0], lng!);
      box[1] = Math.min(box[1], lat!);
      box[2] = Math.max(box[2], lng!);
      box[3] = Math.max(box[3], lat!);
    }
  }
  return box;
}
