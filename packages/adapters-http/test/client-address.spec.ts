import { describe, it } from 'mocha';
import { expect } from 'chai';
import { clientKeyOf, rateLimitKeyOfAddress } from '../src/client-address.js';

describe('rateLimitKeyOfAddress', () => {
  const table: readonly (readonly [string, string, string])[] = [
    // [address, key, why]
    ['192.0.2.1', '192.0.2.1', 'an IPv4 address is one client'],
    ['192.0.2.1:51234', '192.0.2.1', 'a port written by a proxy is not part of the client'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64', 'a full IPv6 address counts by its /64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64', 'every address of one /64 shares the key'],
    ['2001:0DB8:0001:0002::1', '2001:db8:1:2::/64', 'case and leading zeros do not matter'],
    ['2001:db8::1', '2001:db8:0:0::/64', ':: in the interface part'],
    ['2001:db8:0:0:1::', '2001:db8:0:0::/64', ':: at the end'],
    ['2001:db8:0:1::', '2001:db8:0:1::/64', 'a different /64 of the same /48'],
    ['::1', '0:0:0:0::/64', ':: at the start'],
    ['::', '0:0:0:0::/64', 'the unspecified address'],
    ['1:2:3:4:5:6:7::', '1:2:3:4::/64', ':: standing for one zero group'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64', 'a zone id is dropped'],
    ['fe80::1%25eth0', 'fe80:0:0:0::/64', 'a URL-encoded zone id is dropped'],
    ['[2001:db8:1:2::7]', '2001:db8:1:2::/64', 'brackets'],
    ['[2001:db8:1:2::7]:443', '2001:db8:1:2::/64', 'brackets and a port'],
    ['::ffff:192.0.2.1', '192.0.2.1', 'an IPv4-mapped address is its IPv4 client'],
    ['::FFFF:c000:0201', '192.0.2.1', 'an IPv4-mapped address written in hex'],
    ['0:0:0:0:0:ffff:192.0.2.1', '192.0.2.1', 'an IPv4-mapped address written in full'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64', 'an embedded IPv4 that is not IPv4-mapped stays IPv6'],
    ['2001:db8:1:2::', '2001:db8:1:2::/64', 'the prefix itself'],
  ];

  const notAddresses: readonly (readonly [string, string])[] = [
    ['', 'an empty address (no socket address)'],
    ['unknown', 'a word'],
    ['abc', 'a word a client wrote in X-Forwarded-For'],
    ['0x02020202', 'an IPv4 address as one hexadecimal number'],
    ['002.002.002.002', 'an IPv4 address with leading zeros (octal to some parsers)'],
    ['33686018', 'an IPv4 address as one decimal number'],
    ['2.2.2', 'three bytes'],
    ['192.0.2.256', 'a byte out of range'],
    ['2001:db8:::1', 'a malformed IPv6 address'],
    ['1:2:3:4:5:6:7:8:9', 'too many groups'],
    ['1::2::3', 'two ::'],
    ['12345::1', 'a group of five digits'],
    ['::ffff:192.0.2.256', 'an IPv4 part out of range'],
    ['1:2:3:4:5:6:7:8::', ':: with eight groups already'],
  ];

  for (const [address, key, why] of table) {
    it(`keys ${JSON.stringify(address)} as ${JSON.stringify(key)}: ${why}`, () => {
      expect(rateLimitKeyOfAddress(address)).to.equal(key);
    });
  }

  for (const [value, why] of notAddresses) {
    it(`keys nothing for ${JSON.stringify(value)}: ${why} is not an address`, () => {
      expect(rateLimitKeyOfAddress(value)).to.equal(undefined);
    });
  }

  it('gives two IPv6 addresses the same key exactly when they share their first 64 bits', () => {
    expect(rateLimitKeyOfAddress('2001:db8:aa:bb:1::1')).to.equal(rateLimitKeyOfAddress('2001:db8:aa:bb:ffff::9'));
    expect(rateLimitKeyOfAddress('2001:db8:aa:bb::1')).not.to.equal(rateLimitKeyOfAddress('2001:db8:aa:bc::1'));
  });
});

describe('clientKeyOf', () => {
  it('keys a forwarded address in its canonical spelling', () => {
    expect(clientKeyOf('::ffff:198.51.100.7', '10.0.0.1')).to.equal('198.51.100.7');
    expect(clientKeyOf('2001:DB8:1:2::9', '10.0.0.1')).to.equal('2001:db8:1:2::/64');
  });

  it('falls back to the socket address for a forwarded value that is not an address, so that no spelling buys a quota of its own', () => {
    for (const forged of ['abc', '0x02020202', '002.002.002.002', '']) {
      expect(clientKeyOf(forged, '::ffff:10.0.0.1'), forged).to.equal('10.0.0.1');
    }
  });

  it('uses the socket address when nothing is forwarded (proxies not trusted)', () => {
    expect(clientKeyOf(undefined, '203.0.113.5')).to.equal('203.0.113.5');
  });
});
