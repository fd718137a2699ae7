import { expect } from 'chai';
import { createWebhookUrlPolicy } from '../src/index.js';

describe('createWebhookUrlPolicy', function () {
  const publicOnly = createWebhookUrlPolicy({ allowPrivate: false, resolve: async () => ['93.184.215.14'] });

  const refused = [
    'https://127.0.0.1/hooks',
    'https://127.1/hooks',
    'https://0x7f.0.0.1/hooks',
    'https://0x7f000001/hooks',
    'https://2130706433/hooks',
    'https://0177.0.0.1/hooks',
    'https://017700000001/hooks',
    'https://[::1]/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
    'https://[::ffff:7f00:1]/hooks',
    'https://[::ffff:10.0.0.1]/hooks',
    'https://10.1.2.3/hooks',
    'https://172.16.0.1/hooks',
    'https://192.168.1.10/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hooks',
    'https://[fc00::1]/hooks',
    'https://[fd12:3456::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://224.0.0.1/hooks',
    'https://[ff02::1]/hooks',
    'https://0.0.0.0/hooks',
    'https://0/hooks',
    'https://[::]/hooks',
    'https://255.255.255.255/hooks',
    'https://localhost/hooks',
    'https://LOCALHOST./hooks',
    'https://pos.localhost/hooks',
  ];
  for (const url of refused) {
    it(`refuses ${url}`, async () => {
      expect(await publicOnly.check(url)).to.match(/address, not a public one|is this machine/);
    });
  }

  // An IPv6 address that carries a non-public IPv4 address, in each form and spelling.
  const carrying = [
    'https://[::127.0.0.1]/hooks',
    'https://[::7f00:1]/hooks',
    'https://[0:0:0:0:0:0:a00:1]/hooks',
    'https://[::ffff:192.168.0.1]/hooks',
    'https://[64:ff9b::127.0.0.1]/hooks',
    'https://[64:ff9b::a9fe:a9fe]/hooks',
    'https://[64:ff9b:1::808:808]/hooks',
    'https://[2002:7f00:1::]/hooks',
    'https://[2002:c0a8:101:1::1]/hooks',
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks',
    'https://[2001:0:a00:1:8000:63bf:a2f7:f7f1]/hooks',
  ];
  for (const url of carrying) {
    it(`refuses ${url}, which carries a non-public IPv4 address`, async () => {
      expect(await publicOnly.check(url)).to.match(/address, not a public one/);
    });
  }

  it('refuses a name that resolves to an IPv6 address carrying a non-public IPv4 address', async () => {
    for (const address of ['::7f00:1', '64:ff9b::a00:1', '2002:a00:1::1', '2001:0:4136:e378:8000:63bf:f5ff:fffe']) {
      const policy = createWebhookUrlPolicy({ allowPrivate: false, resolve: async () => [address] });
      expect(await policy.check('https://pos.example.com/hooks'), address).to.match(/^pos\.example\.com resolves to .* carries .*address, not a public one$/);
    }
  });

  it('accepts an IPv6 address carrying a public IPv4 address (NAT64, 6to4, Teredo)', async () => {
    for (const host of ['[64:ff9b::5db8:d70e]', '[2002:5db8:d70e::1]', '[2001:0:4136:e378:8000:63bf:a247:28f1]']) {
      expect(await publicOnly.check(`https://${host}/hooks`), host).to.equal(null);
    }
  });

  it('accepts a public address, IPv4 and IPv6', async () => {
    expect(await publicOnly.check('https://93.184.215.14/hooks')).to.equal(null);
    expect(await publicOnly.check('https://[2606:4700::6810:84e5]/hooks')).to.equal(null);
  });

  it('resolves a name and refuses it when any of its addresses is not public', async () => {
    const mixed = createWebhookUrlPolicy({ allowPrivate: false, resolve: async () => ['93.184.215.14', '10.0.0.7'] });
    expect(await mixed.check('https://pos.example.com/hooks')).to.equal('pos.example.com resolves to 10.0.0.7 is a private address, not a public one');
    expect(await publicOnly.check('https://pos.example.com/hooks')).to.equal(null);
  });

  it('refuses a name that does not resolve', async () => {
    const nowhere = createWebhookUrlPolicy({ allowPrivate: false, resolve: async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })) });
    expect(await nowhere.check('https://pos.example.com/hooks')).to.equal('pos.example.com does not resolve');
  });

  it('resolves with the system resolver by default (a name that means this machine is refused)', async () => {
    const system = createWebhookUrlPolicy({ allowPrivate: false });
    expect(await system.check('https://localhost/hooks')).to.be.a('string');
  });

  it('judges where a URL points, whatever its scheme (the domain checks the shape first)', async () => {
    expect(await publicOnly.check('http://93.184.215.14/hooks')).to.equal(null);
    expect(await publicOnly.check('http://10.0.0.1/hooks')).to.match(/private/);
    expect(await publicOnly.check('not a url')).to.equal('is not a URL');
  });

  it('allows any address with WEBHOOK_ALLOW_PRIVATE', async () => {
    const open = createWebhookUrlPolicy({ allowPrivate: true });
    expect(await open.check('https://127.0.0.1/hooks')).to.equal(null);
    expect(await open.check('https://localhost:8080/hooks')).to.equal(null);
  });
});
