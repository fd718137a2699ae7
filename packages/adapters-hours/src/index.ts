/**
 * @storefront/adapters-hours: the store's opening hours, written in OpenStreetMap `opening_hours`
 * syntax and evaluated in the store's IANA time zone, whatever the server's time zone is.
 */
export { createOpeningHours, OpeningHoursError, type ParsedOpeningHours } from './osm-opening-hours.js';
export { isValidTimeZone } from './zoned-time.js';
