/**
 * The CLI's stdout is its output and nothing else, with the logger at its shipped level: what a
 * shell redirect (`menu export > menu.json`) or a pipe gets must parse.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'mocha';

const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));

function storefront(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, STOREFRONT_STORE: 'memory', SCRYPT_LOG_N: '10' };
  delete env['LOG_LEVEL'];
  delete env['TOKEN_SECRET_KEY'];
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('storefront CLI output streams', function () {
  this.timeout(30_000);

  it('writes only the menu to stdout on menu export; the ephemeral-key warning goes to stderr', () => {
    const result = storefront(['menu', 'export']);
    expect(result.status).to.equal(0);
    expect(JSON.parse(result.stdout)).to.have.property('products');
    expect(result.stderr).to.contain('memory');
  });

  it('answers no command with the usage on stderr, nothing on stdout, and exit code 2', () => {
    const result = storefront([]);
    expect(result.status).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.contain('usage: storefront');
  });

  it('answers an unknown command with the usage on stderr, nothing on stdout, and exit code 2', () => {
    const result = storefront(['menu', 'frobnicate']);
    expect(result.status).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.contain('usage: storefront');
  });

  it('prints the usage to stdout when asked for it (--help), exit code 0', () => {
    const result = storefront(['--help']);
    expect(result.status).to.equal(0);
    expect(result.stdout).to.contain('usage: storefront');
  });
});
