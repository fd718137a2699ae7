import { expect } from 'chai';
import { describe, it } from 'mocha';
import { createMailer, LogMailer, SmtpMailer } from '../src/index.js';

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
