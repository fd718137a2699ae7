/**
 * The zones file checked, feature by feature: a bad file must stop the process with a message that
 * says where it is wrong, never leave an area silently without delivery.
 */
import { TEXT_RULE, textFits, type DeliveryZone } from '@storefront/domain/adapter-kit';
import type { MultiPolygon, Polygon, Position } from 'geojson';

export interface ZoneFeature {
  readonly zone: DeliveryZone;
  readonly geometry: Polygon | MultiPolygon;
}

/** A zones document that cannot be used; the message names the feature and field at fault. */
export class DeliveryZonesError extends Error {
  override readonly name = 'DeliveryZonesError';
}

const MAX_NAME = 100;
const MAX_MONEY = 100_000_000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseZoneFeatures(document: unknown): ZoneFeature[] {
  if (!isRecord(document) || document['type'] !== 'FeatureCollection' || !Array.isArray(document['features'])) {
    throw new DeliveryZonesError('must be a GeoJSON FeatureCollection: {"type": "FeatureCollection", "features": [...]}');
  }
  const features = document['features'] as unknown[];
  if (features.length === 0) throw new DeliveryZonesError('has no features: give at least one zone, or leave delivery off');
  const names = new Set<string>();
  return features.map((feature, i) => {
    const where = `features[${i}]`;
    if (!isRecord(feature) || feature['type'] !== 'Feature') throw new DeliveryZonesError(`${where} must be a GeoJSON Feature`);
    const zone = parseProperties(feature['properties'], where);
    if (names.has(zone.name)) throw new DeliveryZonesError(`${where}.properties.name "${zone.name}" names two zones`);
    names.add(zone.name);
    return { zone, geometry: parseGeometry(feature['geometry'], `${where}.geometry`) };
  });
}

function parseProperties(properties: unknown, where: string): DeliveryZone {
  if (!isRecord(properties)) throw new DeliveryZonesError(`${where}.properties must be {name, fee, minimum_order}`);
  const { name, fee } = properties;
  const minimumOrder = properties['minimum_order'];
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME) {
    throw new DeliveryZonesError(`${where}.properties.name must be a non-empty string of at most ${MAX_NAME} characters`);
  }
  // Stored on every delivery order and shown on the kitchen's cards: one line, as any name.
  if (!textFits(name, 'line')) throw new DeliveryZonesError(`${where}.properties.name ${TEXT_RULE.line.message}`);
  for (const [field, value] of [['fee', fee], ['minimum_order', minimumOrder]] as const) {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_MONEY) {
      throw new DeliveryZonesError(`${where}.properties.${field} must be an integer from 0 to ${MAX_MONEY} (minor units)`);
    }
  }
  return { name: name.trim(), fee: fee as number, minimumOrder: minimumOrder as number };
}

function parseGeometry(geometry: unknown, where: string): Polygon | MultiPolygon {
  if (!isRecord(geometry)) throw new DeliveryZonesError(`${where} must be a Polygon or MultiPolygon`);
  const { type, coordinates } = geometry;
  if (type === 'Polygon') {
    checkPolygon(coordinates, `${where}.coordinates`);
    return { type, coordinates: coordinates as Position[][] };
  }
  if (type === 'MultiPolygon') {
    if (!Array.isArray(coordinates) || coordinates.length === 0) throw new DeliveryZonesError(`${where}.coordinates must be a list of polygons`);
    coordinates.forEach((polygon, i) => checkPolygon(polygon, `${where}.coordinates[${i}]`));
    return { type, coordinates: coordinates as Position[][][] };
  }
  throw new DeliveryZonesError(`${where}.type must be Polygon or MultiPolygon, not ${JSON.stringify(type)}`);
}

/** RFC 7946: a polygon is linear rings of at least four positions, the last equal to the first. */
function checkPolygon(rings: unknown, where: string): void {
  if (!Array.isArray(rings) || rings.length === 0) throw new DeliveryZonesError(`${where} must be a list of linear rings`);
  rings.forEach((ring: unknown, r) => {
    if (!Array.isArray(ring) || ring.length < 4) throw new DeliveryZonesError(`${where}[${r}] must be a ring of at least 4 positions`);
    ring.forEach((position: unknown, p) => {
      if (!Array.isArray(position) || position.length < 2 || !isLngLat(position[0], position[1])) {
        throw new DeliveryZonesError(`${where}[${r}][${p}] must be a position [lng, lat] in degrees (lng -180..180, lat -90..90)`);
      }
    });
    const [first, last] = [ring[0] as number[], ring[ring.length - 1] as number[]];
    if (first[0] !== last[0] || first[1] !== last[1]) throw new DeliveryZonesError(`${where}[${r}] must end at the position it starts at (a closed ring)`);
  });
}

function isLngLat(lng: unknown, lat: unknown): boolean {
  return typeof lng === 'number' && typeof lat === 'number' && Math.abs(lng) <= 180 && Math.abs(lat) <= 90;
}
