import { describe, it } from 'mocha';
import { expect } from 'chai';
import { cheapestZone } from '@storefront/domain/adapter-kit';
import { DEMO_STORE_LOCATION, DEMO_ZONES_FILE, DeliveryZonesError, GeoJsonDeliveryZones, loadZonesFile } from '../src/index.js';

/** A square [lng0, lat0]–[lng1, lat1]. */
const square = (lng0: number, lat0: number, lng1: number, lat1: number) => [
  [lng0, lat0],
  [lng1, lat0],
  [lng1, lat1],
  [lng0, lat1],
  [lng0, lat0],
];
const feature = (name: string, fee: number, minimum: number, geometry: unknown) => ({
  type: 'Feature',
  properties: { name, fee, minimum_order: minimum },
  geometry,
});
const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });

describe('GeoJsonDeliveryZones', () => {
  const zones = GeoJsonDeliveryZones.fromDocument(
    collection(
      feature('Inner', 200, 1000, { type: 'Polygon', coordinates: [square(0, 0, 2, 2)] }),
      // A ring with a hole over the inner square's middle.
      feature('Ring', 500, 2000, { type: 'Polygon', coordinates: [square(-1, -1, 3, 3), square(0.5, 0.5, 1.5, 1.5)] }),
      feature('Islands', 300, 0, { type: 'MultiPolygon', coordinates: [[square(10, 10, 11, 11)], [square(20, 20, 21, 21)]] }),
    ),
  );
  const names = (lat: number, lng: number) => zones.lookup(lat, lng).map((z) => z.name).sort();

  it('finds every zone containing a point, with its fee and minimum order', () => {
    expect(zones.lookup(0.25, 0.25)).to.deep.include.members([
      { name: 'Inner', fee: 200, minimumOrder: 1000 },
      { name: 'Ring', fee: 500, minimumOrder: 2000 },
    ]);
  });

  it('reads positions as [lng, lat]', () => {
    expect(names(10.5, 20.5)).to.deep.equal([]);
    expect(names(20.5, 20.5)).to.deep.equal(['Islands']);
  });

  it('leaves out the hole of a polygon', () => {
    expect(names(1, 1)).to.deep.equal(['Inner']);
  });

  it('finds each part of a MultiPolygon', () => {
    expect(names(10.5, 10.5)).to.deep.equal(['Islands']);
    expect(names(20.5, 20.5)).to.deep.equal(['Islands']);
  });

  it('counts a point on the edge as inside', () => {
    expect(names(0, 2)).to.include('Inner');
  });

  it('finds a zone from each corner of the zones\' extent, and from a grid cell shared by many zones', () => {
    const one = GeoJsonDeliveryZones.fromDocument(collection(feature('Only', 100, 0, { type: 'Polygon', coordinates: [square(0.1, 0.2, 0.7, 0.9)] })));
    for (const [lat, lng] of [[0.2, 0.1], [0.9, 0.7], [0.2, 0.7], [0.9, 0.1]] as const) expect(one.lookup(lat, lng)).to.have.length(1, `${lat}, ${lng}`);
    expect(one.lookup(0.9000001, 0.7)).to.deep.equal([]);
    const many = GeoJsonDeliveryZones.fromDocument(collection(...Array.from({ length: 50 }, (_, i) => feature(`Z${i}`, i, 0, { type: 'Polygon', coordinates: [square(i, 0, i + 2, 1)] }))));
    expect(many.lookup(0.5, 10.5).map((z) => z.name).sort()).to.deep.equal(['Z10', 'Z9']);
    expect(many.lookup(0.5, 51).map((z) => z.name)).to.deep.equal(['Z49']);
  });

  it('finds nothing outside every zone', () => {
    expect(zones.lookup(-50, 100)).to.deep.equal([]);
    expect(zones.lookup(5, 5)).to.deep.equal([]);
  });

  it('charges the lowest fee where zones overlap', () => {
    expect(cheapestZone(zones.lookup(0.25, 0.25))?.name).to.equal('Inner');
  });

  describe('a bad document', () => {
    const refusal = (document: unknown) => {
      try {
        GeoJsonDeliveryZones.fromDocument(document);
      } catch (error) {
        expect(error).to.be.instanceOf(DeliveryZonesError);
        return (error as Error).message;
      }
      return expect.fail('the document was accepted');
    };
    const good = (geometry: unknown = { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] }) => feature('A', 100, 0, geometry);

    it('is refused when it is not a FeatureCollection', () => {
      expect(refusal({ type: 'Feature' })).to.match(/FeatureCollection/);
      expect(refusal(collection())).to.match(/no features/);
    });

    it('is refused naming the feature whose properties are wrong', () => {
      expect(refusal(collection(good(), { ...good(), properties: { name: 'B', fee: -1, minimum_order: 0 } }))).to.match(/features\[1\]\.properties\.fee/);
      expect(refusal(collection({ ...good(), properties: { name: 'A', fee: 1.5, minimum_order: 0 } }))).to.match(/fee/);
      expect(refusal(collection({ ...good(), properties: { name: '', fee: 1, minimum_order: 0 } }))).to.match(/name/);
      expect(refusal(collection({ ...good(), properties: { name: 'A', fee: 1 } }))).to.match(/minimum_order/);
      expect(refusal(collection(good(), good()))).to.match(/names two zones/);
      for (const name of ['Centre\u0000', 'Centre\ud800', 'Cen\u202etre', 'Centre\nOuter']) {
        expect(refusal(collection({ ...good(), properties: { name, fee: 1, minimum_order: 0 } })), JSON.stringify(name)).to.match(/properties\.name must be one line of text/);
      }
    });

    it('is refused for a geometry that is not a closed polygon of positions', () => {
      expect(refusal(collection(good({ type: 'Point', coordinates: [0, 0] })))).to.match(/Polygon or MultiPolygon/);
      expect(refusal(collection(good({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] })))).to.match(/at least 4 positions/);
      expect(refusal(collection(good({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] })))).to.match(/closed ring/);
      expect(refusal(collection(good({ type: 'Polygon', coordinates: [square(0, 0, 1, 95)] })))).to.match(/\[lng, lat\]/);
    });
  });

  it('loads the demo zones, two rings around the demo store, the Centre cheaper where both hold', () => {
    const demo = loadZonesFile(DEMO_ZONES_FILE);
    expect(demo.size).to.equal(2);
    const atStore = demo.lookup(DEMO_STORE_LOCATION.lat, DEMO_STORE_LOCATION.lng);
    expect(cheapestZone(atStore)).to.deep.equal({ name: 'Centre', fee: 250, minimumOrder: 1500 });
    // About 3.5 km north: the outer ring only.
    expect(demo.lookup(DEMO_STORE_LOCATION.lat + 0.032, DEMO_STORE_LOCATION.lng).map((z) => z.name)).to.deep.equal(['Outer ring']);
    expect(demo.lookup(48.137, 11.575)).to.deep.equal([]);
  });

  it('refuses a file that is not JSON, naming the file', () => {
    expect(() => loadZonesFile('/nonexistent/zones.geojson')).to.throw(DeliveryZonesError, /cannot be read/);
  });
});
