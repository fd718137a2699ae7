import { expect } from 'chai';
import { describe, it } from 'mocha';
import { createMailer, LogMailer, parseSmtpUrl, SmtpMailer } from '../src/index.js';

const log = () => {};

describe('createMailer', () => {
  it('writes to the log when no SMTP_URL is set', async () => {
    for (const smtpUrl of [undefined, '', '  ']) {
      const mailers = createMailer({ smtpUrl, log });
      expect(mailers.mailer).to.be.instanceOf(LogMailer);
      expect(mailers.describe).to.match(/^log/);
      await mailers.close();
    }
  });

  it('sends through SMTP when SMTP_URL is set, described without the password', async () => {
    const mailers = createMailer({ smtpUrl: 'smtp://shop:s3cret@mail.example:587', from: 'no-reply@shop.example', log });
    expect(mailers.mailer).to.be.instanceOf(SmtpMailer);
    expect(mailers.describe).to.equal('smtp://shop:***@mail.example:587 (pooled, 5 attempts per message)');
    expect(mailers.verify).to.be.a('function');
    await mailers.close();
  });

  it('skips the certificate check only for a server on this machine', () => {
    const loopback = (url: string): boolean => parseSmtpUrl(url).loopback;
    expect(['smtp://127.0.0.1:25', 'smtp://localhost:2525', 'smtp://[::1]:25', 'smtp://127.8.9.10'].map(loopback)).to.deep.equal([true, true, true, true]);
    expect(['smtp://mail.shop.example:587', 'smtp://10.0.0.5:25', 'smtp://localhost.shop.example', 'smtp://127.0.0.1.nip.io'].map(loopback)).to.deep.equal([false, false, false, false]);
  });

  it('refuses a SMTP_URL of another scheme, naming the setting and hiding the password', () => {
    expect(() => createMailer({ smtpUrl: 'http://shop:s3cret@mail.example', from: 'a@shop.example', log }))
      .to.throw(/^SMTP_URL must use smtp:\/\/ .* got http:\/\/shop:\*\*\*@mail\.example$/);
  });

  it('refuses a SMTP_URL that is not a URL without repeating it', () => {
    expect(() => createMailer({ smtpUrl: 'shop:s3cret@mail', from: 'a@shop.example', log }))
      .to.throw(/^SMTP_URL/)
      .with.property('message')
      .that.does.not.contain('s3cret');
  });

  it('requires MAIL_FROM with SMTP_URL', () => {
    expect(() => createMailer({ smtpUrl: 'smtps://mail.example', log })).to.throw(/^MAIL_FROM is required/);
  });
});
