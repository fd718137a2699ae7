/** The Mailer contract, run by both adapters: SMTP against a real SMTP server, and the log. */
import type { MailMessage } from '@storefront/domain/adapter-kit';
import { describeMailerContract } from '@storefront/testing';
import { LogMailer, SmtpMailer } from '../src/index.js';
import { startSmtpServer } from './smtp-test-server.js';

describeMailerContract('LogMailer', async () => {
  const entries: MailMessage[] = [];
  return { mailer: new LogMailer((entry) => entries.push(entry)), delivered: () => entries, close: async () => {} };
});

describeMailerContract('SmtpMailer', async () => {
  const server = await startSmtpServer();
  const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${server.port}`, from: 'Storefront <no-reply@shop.example>' });
  return {
    mailer,
    delivered: () =>
      server.received.map((mail) => ({
        to: mail.to === undefined ? '' : [mail.to].flat().flatMap((a) => a.value.map((v) => v.address ?? '')).join(','),
        subject: mail.subject ?? '',
        text: mail.text ?? '',
      })),
    close: async () => {
      await mailer.close();
      await server.stop();
    },
  };
});
