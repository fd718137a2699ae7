/**
 * docs/configuration.md is generated from the configuration code (config-reference.ts): these tests
 * fail when the file, the variables config.ts reads and their descriptions disagree, and say how to
 * regenerate.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { CONFIGURATION_DOC, configVariables, REGENERATE, renderConfigurationDoc } from '../../src/config-reference.js';
import { VARIABLE_NOTES } from '../../src/config-variables.js';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

describe('The configuration reference (docs/configuration.md)', () => {
  const variables = configVariables();

  it('is the table the configuration code generates', () => {
    const written = readFileSync(join(ROOT, CONFIGURATION_DOC), 'utf8');
    expect(written === renderConfigurationDoc(), `${CONFIGURATION_DOC} is out of date with packages/app/src/config.ts: regenerate it with\n  ${REGENERATE}\nand commit the result`).to.equal(true);
  });

  it('lists every variable config.ts reads, in every store mode', () => {
    const names = variables.map((v) => v.name);
    for (const name of ['PORT', 'HOST', 'STOREFRONT_STORE', 'DATABASE_URL', 'MONGODB_URI', 'REDIS_URL', 'TOKEN_SECRET_KEY', 'METRICS_HOST', 'SHUTDOWN_TIMEOUT_SECONDS']) {
      expect(names).to.include(name);
    }
  });

  it('describes every variable, and only variables config.ts reads', () => {
    const undescribed = variables.filter((v) => v.meaning === undefined).map((v) => v.name);
    expect(undescribed, `add a line for each to packages/app/src/config-variables.ts, then ${REGENERATE}`).to.deep.equal([]);
    const read = new Set(variables.map((v) => v.name));
    expect(Object.keys(VARIABLE_NOTES).filter((name) => !read.has(name)), 'described in config-variables.ts but not read by config.ts').to.deep.equal([]);
  });

  it('says what a bad value of each variable does, from loadConfig\'s own message where it checks one', () => {
    expect(variables.filter((v) => v.bad === '').map((v) => v.name), 'no bad value found: give the note a `bad`').to.deep.equal([]);
    const port = variables.find((v) => v.name === 'PORT');
    expect(port).to.deep.include({ default: '`3000`' });
    expect(port?.bad).to.match(/^Stops the start: “PORT must be an integer from 0 to 65535/);
  });
});
