/**
 * Which Mailer the settings give: SMTP with SMTP_URL (described without its password), the log in
 * the demo without it, and none otherwise (a reset link is a credential and must not land in a log
 * outside the demo).
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { loadConfig } from '../src/config.js';
import { mailersFor } from '../src/modules/mail-module.js';
import { generateSigningKey } from '@storefront/adapters-crypto';
import { recordingLogger } from './helpers.js';
import { startSmtpCapture } from './smtp-capture.js';

describe('the mail module', () => {
  it('writes each email to the log at info in the demo without SMTP_URL, the whole text included', async () => {
    const { logger, lines } = recordingLogger();
    const mailers = mailersFor(loadConfig({}), logger)!;
    expect(mailers.describe).to.match(/^log/);
    await mailers.mailer.send({ to: 'ann@example.com', subject: 'Reset', text: 'http://localhost:3000/reset-password?token=abc' });
    expect(lines).to.have.length(1);
    expect(lines[0]).to.deep.include({ level: 30, mail: { to: 'ann@example.com', subject: 'Reset', text: 'http://localhost:3000/reset-password?token=abc' } });
  });

  it('has no mailer without SMTP_URL outside the demo (STOREFRONT_DEMO_DATA=false), even in memory mode', () => {
    expect(mailersFor(loadConfig({ STOREFRONT_DEMO_DATA: 'false' }), recordingLogger().logger)).to.equal(undefined);
  });

  it('has no mailer with MongoDB and no SMTP_URL, so that no reset link is ever logged in production', () => {
    const config = loadConfig({ STOREFRONT_STORE: 'mongo', MONGODB_URI: 'mongodb://db/storefront', TOKEN_SECRET_KEY: generateSigningKey() });
    expect(mailersFor(config, recordingLogger().logger)).to.equal(undefined);
  });

  it('sends through SMTP with SMTP_URL, described without the password', async () => {
    const config = loadConfig({ SMTP_URL: 'smtp://shop:hunter2@mail.internal:587', PASSWORD_RESET_URL: 'https://shop.example/reset?token=' });
    const mailers = mailersFor(config, recordingLogger().logger)!;
    try {
      expect(mailers.describe).to.match(/^smtp:\/\/shop:\*\*\*@mail\.internal:587/).and.not.contain('hunter2');
    } finally {
      await mailers.close();
    }
    // The same module against a real SMTP server (no AUTH on offer: no credentials in its URL).
    const smtp = await startSmtpCapture();
    const { logger, lines } = recordingLogger();
    const sending = mailersFor(loadConfig({ SMTP_URL: smtp.url, PASSWORD_RESET_URL: 'https://shop.example/reset?token=' }), logger)!;
    try {
      await sending.mailer.send({ to: 'ann@example.com', subject: 'Reset', text: 'https://shop.example/reset?token=abc' });
      const [mail] = await smtp.waitFor(1);
      expect(mail).to.deep.include({ to: 'ann@example.com', subject: 'Reset', text: 'https://shop.example/reset?token=abc\n' });
      expect(lines.filter((line) => line.mail !== undefined), 'nothing written to the log').to.deep.equal([]);
    } finally {
      await sending.close();
      await smtp.stop();
    }
  });
});
