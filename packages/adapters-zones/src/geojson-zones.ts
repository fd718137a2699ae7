/**
 * Delivery zones from GeoJSON (RFC 7946): Polygon or MultiPolygon features with properties
 * `{name, fee, minimum_order}` (minor units), positions `[lng, lat]`. A uniform grid over the
 * zones' extent lists per cell the zones whose bounding box overlaps it, so a lookup tests only a
 * cell's few candidates with @turf/boolean-point-in-polygon (a point on an edge is inside).
 */
import type { DeliveryZones } from '@storefront/domain';
import type { DeliveryZone } from '@storefront/domain/adapter-kit';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import { parseZoneFeatures, type ZoneFeature } from './zone-document.js';

export class GeoJsonDeliveryZones implements DeliveryZones {
  private readonly zones: readonly DeliveryZone[];
  private readonly geometries: readonly (Polygon | MultiPolygon)[];
  /** minLng, minLat, maxLng, maxLat per zone. */
  private readonly boxes: Float64Array;
  private readonly grid: BoxGrid;

  constructor(features: readonly ZoneFeature[]) {
    this.zones = features.map((f) => f.zone);
    this.geometries = features.map((f) => f.geometry);
    this.boxes = new Float64Array(features.length * 4);
    features.forEach((f, i) => this.boxes.set(boundingBox(f.geometry), i * 4));
    this.grid = new BoxGrid(this.boxes);
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
    for (const i of this.grid.candidates(lng, lat)) {
      const b = i * 4;
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

const GRID_CELLS = 64;
const NONE: readonly number[] = Object.freeze([]);

/** Zone indexes by cell of a GRID_CELLS × GRID_CELLS grid over the boxes' extent. */
class BoxGrid {
  private readonly cells: number[][] = Array.from({ length: GRID_CELLS * GRID_CELLS }, () => []);
  private readonly minLng: number;
  private readonly minLat: number;
  private readonly maxLng: number;
  private readonly maxLat: number;
  private readonly cellLng: number;
  private readonly cellLat: number;

  constructor(boxes: Float64Array) {
    let [minLng, minLat, maxLng, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let b = 0; b < boxes.length; b += 4) {
      minLng = Math.min(minLng, boxes[b]!);
      minLat = Math.min(minLat, boxes[b + 1]!);
      maxLng = Math.max(maxLng, boxes[b + 2]!);
      maxLat = Math.max(maxLat, boxes[b + 3]!);
    }
    this.minLng = minLng;
    this.minLat = minLat;
    this.maxLng = maxLng;
    this.maxLat = maxLat;
    // A degenerate extent (one point, one line) still gets cells of some size.
    this.cellLng = Math.max((maxLng - minLng) / GRID_CELLS, 1e-9);
    this.cellLat = Math.max((maxLat - minLat) / GRID_CELLS, 1e-9);
    for (let i = 0, b = 0; b < boxes.length; i++, b += 4) {
      const [x0, y0, x1, y1] = [this.column(boxes[b]!), this.row(boxes[b + 1]!), this.column(boxes[b + 2]!), this.row(boxes[b + 3]!)];
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) this.cells[y * GRID_CELLS + x]!.push(i);
    }
  }

  /** The zones whose box may hold the point (none outside the extent). */
  candidates(lng: number, lat: number): readonly number[] {
    if (!(lng >= this.minLng && lng <= this.maxLng && lat >= this.minLat && lat <= this.maxLat)) return NONE;
    return this.cells[this.row(lat) * GRID_CELLS + this.column(lng)]!;
  }

  private column(lng: number): number {
    return Math.min(GRID_CELLS - 1, Math.max(0, Math.floor((lng - this.minLng) / this.cellLng)));
  }

  private row(lat: number): number {
    return Math.min(GRID_CELLS - 1, Math.max(0, Math.floor((lat - this.minLat) / this.cellLat)));
  }
}
