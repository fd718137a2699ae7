import type { MailMessage } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { LogMailer } from '../src/index.js';

describe('LogMailer', () => {
  it('writes the message to the log as it is, reset link included', async () => {
    const entries: MailMessage[] = [];
    const message = { to: 'ana@shop.example', subject: 'Café', text: 'Reset: https://shop.example/reset?token=abc_DEF-123\n' };
    await new LogMailer((entry) => entries.push(entry)).send(message);
    expect(entries).to.deep.equal([message]);
  });

  it('rejects when the log cannot be written', async () => {
    const mailer = new LogMailer(() => {
      throw new Error('log closed');
    });
    let rejected: unknown;
    await mailer.send({ to: 'a@b.example', subject: 's', text: 't' }).catch((error: unknown) => (rejected = error));
    expect(rejected).to.be.instanceOf(Error).with.property('message', 'log closed');
  });
});
