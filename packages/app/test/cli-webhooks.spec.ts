/**
 * `storefront webhooks …` in process (a memory store lives as long as its process, so the commands
 * share one storefront here): add prints the secret once, list and deliveries show what is kept,
 * remove removes, and bad input is a CliError with exit code 2 that changes nothing.
 */
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters } from '@storefront/adapters-memory';
import { createWebhookUrlPolicy } from '@storefront/adapters-webhooks';
import { createStorefront, type Storefront } from '@storefront/domain';
import { expect } from 'chai';
import { beforeEach, describe, it } from 'mocha';
import { CliError, runCommand } from '../src/cli/commands.js';

describe('storefront webhooks (CLI)', () => {
  let storefront: Storefront;
  let lines: string[];
  const io = { out: (text: string) => lines.push(text), readPassword: async () => '', readSecret: async () => '' };
  const run = async (...args: string[]): Promise<string[]> => {
    lines = [];
    await runCommand(storefront, args, io);
    return lines;
  };
  const refusal = async (...args: string[]): Promise<CliError> => {
    try {
      await run(...args);
    } catch (error) {
      if (error instanceof CliError) return error;
      throw error;
    }
    throw new Error(`${args.join(' ')} was not refused`);
  };

  beforeEach(() => {
    storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }), webhookUrlPolicy: createWebhookUrlPolicy({ allowPrivate: false }) });
  });

  it('adds an endpoint and prints its secret once; list shows it without the secret', async () => {
    const added = await run('webhooks', 'add', 'https://93.184.215.14/hooks', '--events', 'order.placed', '--description', 'POS');
    const id = /^added (whk_[0-9a-z]{20}) https:\/\/93\.184\.215\.14\/hooks \(order\.placed\)$/.exec(added[0] ?? '')?.[1];
    expect(id, added.join('\n')).to.be.a('string');
    expect(added[1]).to.match(/^secret: whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await run('webhooks', 'list');
    expect(listed[0]).to.equal(`${id}  enabled   order.placed  https://93.184.215.14/hooks  POS`);
    expect(listed.join('\n')).to.not.include('whsec_');
    expect(await run('webhooks', 'remove', id!)).to.deep.equal([`removed ${id}`]);
    expect(await run('webhooks', 'list')).to.deep.equal(['0 endpoints']);
  });

  it('lists an endpoint\'s deliveries, optionally of one status', async () => {
    const id = /(whk_[0-9a-z]{20})/.exec((await run('webhooks', 'add', 'https://93.184.215.14/hooks'))[0]!)?.[1]!;
    await storefront.webhooks!.sendTest(id);
    const pending = await run('webhooks', 'deliveries', id, '--status', 'pending');
    expect(pending[0]).to.match(/^wdl_[0-9a-z]{20} {2}pending {4}webhook\.test {2}attempts 0 {2}- {2}next \S+ {2}evt_/);
    expect(pending[1]).to.equal('1 of 1 deliveries (page 1)');
    expect(await run('webhooks', 'deliveries', id, '--status', 'failed')).to.deep.equal(['0 of 0 deliveries (page 1)']);
  });

  it('refuses a private address, an unknown event, a bad status and missing arguments, changing nothing', async () => {
    expect((await refusal('webhooks', 'add', 'https://127.0.0.1/hooks')).message).to.include('url');
    expect((await refusal('webhooks', 'add', 'https://93.184.215.14/hooks', '--events', 'order.eaten')).exitCode).to.equal(2);
    expect((await refusal('webhooks', 'add')).exitCode).to.equal(2);
    expect((await refusal('webhooks', 'deliveries', 'whk_00000000000000000000', '--status', 'lost')).exitCode).to.equal(2);
    expect((await refusal('webhooks', 'remove', 'whk_00000000000000000000')).exitCode).to.equal(1);
    expect(await run('webhooks', 'list')).to.deep.equal(['0 endpoints']);
  });
});
