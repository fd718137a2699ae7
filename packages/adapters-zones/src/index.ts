/**
 * @storefront/adapters-zones: the DeliveryZones port over GeoJSON zones, with
 * @turf/boolean-point-in-polygon for the geometry.
 */
export { GeoJsonDeliveryZones } from './geojson-zones.js';
export { DeliveryZonesError, type ZoneFeature } from './zone-document.js';
export { loadZonesFile } from './load-zones-file.js';
export { DEMO_STORE_LOCATION, DEMO_ZONES_FILE } from './demo-zones.js';
