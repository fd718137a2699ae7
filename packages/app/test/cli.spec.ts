import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'mocha';
import { generateSigningKey, PasetoTokenService } from '@storefront/adapters-crypto';
import { loadConfig } from '../src/config.js';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));

function storefront(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    input,
    env: { ...process.env, STOREFRONT_STORE: 'memory', SCRYPT_LOG_N: '10', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function menuFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'storefront-cli-')), 'menu.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('storefront CLI', function () {
  this.timeout(30_000);

  it('imports a valid menu file and says how many products it holds', () => {
    const path = menuFile({ products: [{ name: 'Soup', category: 'Starters', price: 450 }, { name: 'Pie', category: 'Desserts', price: 600 }] });
    const result = storefront(['menu', 'import', path]);
    expect(result.status).to.equal(0);
    expect(result.stdout).to.contain(`imported 2 products from ${path}`);
  });

  it('refuses an invalid menu with every problem named and a non-zero exit', () => {
    const path = menuFile({ products: [{ name: '', category: 'Starters', price: -1 }] });
    const result = storefront(['menu', 'import', path]);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.contain('products.0.name').and.contain('products.0.price');
    expect(result.stderr).not.to.match(/\n\s+at /);
  });

  it('names the file that is not JSON', () => {
    const path = menuFile('{"products": [');
    const result = storefront(['menu', 'import', path]);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.contain(path);
  });

  it('exports the menu in the import format', () => {
    const result = storefront(['menu', 'export']);
    expect(result.status).to.equal(0);
    expect(JSON.parse(result.stdout)).to.deep.equal({ products: [] });
  });

  it('adds a customer with the password read from stdin, never from an argument', () => {
    const added = storefront(['customers', 'add', '--email', 'Dana@Example.com', '--name', 'Dana'], 'dana-password\n');
    expect(added.status).to.equal(0);
    expect(added.stdout).to.match(/^added dana@example\.com as cus_[0-9a-z]{20} \(customer\)\n$/);

    const refused = storefront(['customers', 'add', '--email', 'e@example.com', '--name', 'E', '--password', 'x']);
    expect(refused.status).to.equal(2);
    expect(refused.stderr).to.contain('never an argument');
  });

  it('refuses a too-short password without adding anyone', () => {
    const result = storefront(['customers', 'add', '--email', 'f@example.com', '--name', 'F'], 'short');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.contain('password');
  });

  it('says when the customer to disable does not exist', () => {
    const result = storefront(['customers', 'disable', 'nobody@example.com']);
    expect(result.status).to.equal(1);
    expect(result.stderr).to.contain('No customer with email nobody@example.com');
  });

  it('seeds the demo data', () => {
    const result = storefront(['seed', '--demo']);
    expect(result.status).to.equal(0);
    expect(result.stdout).to.match(/demo menu: 2\d products; demo customers added: 5/);
  });

  it('generates a TOKEN_SECRET_KEY that the server accepts', () => {
    const result = storefront(['keys', 'generate']);
    expect(result.status).to.equal(0);
    const key = result.stdout.trim();
    expect(key).to.match(/^k4\.secret\.[A-Za-z0-9_-]{86}$/);
    expect(loadConfig({ STOREFRONT_STORE: 'mongo', MONGODB_URI: 'mongodb://db/storefront', TOKEN_SECRET_KEY: key }).tokenSecretKey).to.equal(key);
  });

  it('prints the k4.public of a k4.secret read from stdin: the key id it gives is the one the secret key signs with', async () => {
    const secret = generateSigningKey();
    const result = storefront(['keys', 'public'], `${secret}\n`);
    expect(result.status, result.stderr).to.equal(0);
    const publicKey = result.stdout.trim();
    expect(publicKey).to.match(/^k4\.public\.[A-Za-z0-9_-]{43}$/).and.equal(await new PasetoTokenService(secret).publicKey());
    expect(result.stdout).not.to.include(secret.slice(10));
    expect(loadConfig({ TOKEN_VERIFY_KEYS: publicKey }).tokenVerifyKeys).to.deep.equal([publicKey]);
  });

  it('refuses, without echoing it, input to keys public that is not a k4.secret, or a damaged one', () => {
    const notSecret = storefront(['keys', 'public'], 'k4.local.c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA\n');
    expect(notSecret.status).to.equal(1);
    expect(notSecret.stderr).to.contain('is not one').and.not.contain('c2VjcmV0');
    expect(notSecret.stdout).to.equal('');
    // Seed of one key, public half of another: a damaged copy.
    const [a, b] = [generateSigningKey(), generateSigningKey()].map((key) => Buffer.from(key.slice(10), 'base64url'));
    const damaged = `k4.secret.${Buffer.concat([a!.subarray(0, 32), b!.subarray(32)]).toString('base64url')}`;
    const refused = storefront(['keys', 'public'], damaged);
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.contain('damaged').and.not.contain(damaged.slice(10));
  });

  it('answers an unknown command with the usage and exit code 2', () => {
    const result = storefront(['menu', 'frobnicate']);
    expect(result.status).to.equal(2);
    expect(result.stderr).to.contain('usage: storefront');
  });
});
