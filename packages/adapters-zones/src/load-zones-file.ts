/** Reads a zones file at start: unreadable, not JSON, or not zones → DeliveryZonesError saying which. */
import { readFileSync } from 'node:fs';
import { GeoJsonDeliveryZones } from './geojson-zones.js';
import { DeliveryZonesError } from './zone-document.js';

export function loadZonesFile(path: string): GeoJsonDeliveryZones {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DeliveryZonesError(`cannot be read (${path}): ${(error as Error).message}`, { cause: error });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new DeliveryZonesError(`is not JSON (${path}): ${(error as Error).message}`, { cause: error });
  }
  return GeoJsonDeliveryZones.fromDocument(document);
}
