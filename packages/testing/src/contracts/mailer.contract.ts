/**
 * What every Mailer must do, whatever carries the mail: deliver each message once, as it was
 * composed (the reset link intact, UTF-8 kept), and resolve only once it is delivered.
 */
import type { Mailer } from '@storefront/domain';
import type { MailMessage } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';

/** A mailer and what arrived at its far end (the mail server's inbox, the log). */
export interface MailerUnderTest {
  readonly mailer: Mailer;
  /** Messages delivered so far, read back from the far end. */
  delivered(): readonly MailMessage[];
  close(): Promise<void>;
}

export function describeMailerContract(name: string, make: () => Promise<MailerUnderTest>): void {
  describe(`Mailer contract: ${name}`, () => {
    const opened: MailerUnderTest[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((m) => m.close()));
    });
    const open = async (): Promise<MailerUnderTest> => {
      const made = await make();
      opened.push(made);
      return made;
    };

    const reset: MailMessage = {
      to: 'zoe@shop.example',
      subject: 'Reset your Café Zoë password',
      text: 'Open this link within 30 minutes:\n\nhttps://shop.example/reset?token=0123456789abcdefghjkmnpqrstvwxyz01234567890\n',
    };

    it('has delivered the message, as composed, when send resolves', async () => {
      const under = await open();
      await under.mailer.send(reset);
      const [delivered, ...more] = under.delivered();
      expect(more).to.deep.equal([]);
      expect(delivered?.to).to.equal(reset.to);
      expect(delivered?.subject).to.equal(reset.subject);
      expect(delivered?.text.trim()).to.equal(reset.text.trim());
    });

    it('delivers concurrent messages once each', async () => {
      const under = await open();
      const messages = ['ana', 'ben', 'cy'].map((who) => ({ ...reset, to: `${who}@shop.example` }));
      await Promise.all(messages.map((m) => under.mailer.send(m)));
      expect(under.delivered().map((m) => m.to).sort()).to.deep.equal(messages.map((m) => m.to));
    });
  });
}
