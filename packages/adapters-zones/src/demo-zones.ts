/**
 * The demo's zones: two rings around the demo store at Alexanderplatz, Berlin (52.5219, 13.4132),
 * "Centre" (2 km, fee 250, minimum 1500) and "Outer ring" (5 km, fee 450, minimum 2500). A
 * point in both gets the Centre's lower fee.
 */
import { fileURLToPath } from 'node:url';

export const DEMO_STORE_LOCATION = { lat: 52.5219, lng: 13.4132 } as const;

/** The demo zones file, shipped with this package. */
export const DEMO_ZONES_FILE = fileURLToPath(new URL('../../demo/delivery-zones.geojson', import.meta.url));
