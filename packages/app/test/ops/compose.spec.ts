/**
 * compose.yaml, without a container engine: parsed, and the environment of each Storefront
 * service held to the configuration's own list of variables (config-reference.ts) and to
 * loadConfig, with the interpolations Compose would make.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { parse } from 'yaml';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { loadConfig } from '../../src/config.js';
import { configVariableNames } from '../../src/config-reference.js';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

interface Service {
  readonly build?: unknown;
  readonly image?: string;
  readonly ports?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly depends_on?: Record<string, unknown>;
  readonly stop_grace_period?: string;
}

const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const storefronts = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

/** `${NAME:?message}` and `${NAME:-default}` as Compose resolves them, from `shell`. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind: string | undefined, rest: string) => {
    if (shell[name] !== undefined) return shell[name];
    if (kind === '?') throw new Error(`compose.yaml needs ${name}: ${rest}`);
    return kind === '-' ? rest : '';
  });
}

describe('compose.yaml', () => {
  it('starts two Storefront instances from the Dockerfile on two ports, with PostgreSQL and Redis', () => {
    expect(storefronts).to.have.length(2);
    const published = storefronts.map(([, service]) => service.ports?.[0]?.split(':')[0]);
    expect(new Set(published).size).to.equal(2);
    for (const [, service] of storefronts) {
      expect(service.build).to.equal('.');
      expect(service.ports?.[0]).to.match(/:3000$/);
      expect(Object.keys(service.depends_on ?? {}).sort()).to.deep.equal(['postgres', 'redis']);
    }
    expect(compose.services['postgres']?.image).to.match(/^postgres:(1[4-9]|[2-9]\d)/);
    expect(compose.services['redis']?.image).to.match(/^redis:/);
  });

  it('sets only variables the configuration reads', () => {
    const known = configVariableNames();
    for (const [name, service] of storefronts) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !known.has(variable));
      expect(unknown, `${name} sets variables config.ts does not read (docs/configuration.md)`).to.deep.equal([]);
    }
  });

  it('gives each instance a configuration that loads: PostgreSQL, Redis, one shared key, no demo data unless asked', () => {
    const shell = { TOKEN_SECRET_KEY: generateSigningKey() };
    expect(() => interpolate(compose.services['storefront-1']?.environment?.['TOKEN_SECRET_KEY'] ?? '', {})).to.throw(/TOKEN_SECRET_KEY/);
    for (const [, service] of storefronts) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), shell)]));
      const config = loadConfig(env);
      expect(config.database).to.equal('postgres');
      expect(new URL(config.databaseUrl ?? '').hostname).to.equal('postgres');
      expect(new URL(config.redisUrl ?? '').hostname).to.equal('redis');
      expect(config.tokenSecretKey).to.equal(shell.TOKEN_SECRET_KEY);
      expect(config.demoData).to.equal(false);
      // Docker kills after stop_grace_period: requests in flight must have finished by then.
      expect(parseInt(service.stop_grace_period ?? '10s', 10)).to.be.greaterThan(config.shutdownTimeoutSeconds);
    }
  });
});
