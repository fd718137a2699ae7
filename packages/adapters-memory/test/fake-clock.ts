/** The shared FakeClock, under the name the memory adapter's tests import. */
export { FakeClock } from '@storefront/testing';
