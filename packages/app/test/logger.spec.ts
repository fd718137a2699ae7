import { describe, it } from 'mocha';
import { expect } from 'chai';
import { recordingLogger } from './helpers.js';

describe('createLogger', () => {
  it('writes one JSON object per line with the fields and the message', () => {
    const { logger, lines } = recordingLogger();
    logger.info({ port: 3000 }, 'storefront started');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ msg: 'storefront started', port: 3000, service: 'storefront', level: 30 });
  });

  it('never writes a password, a token or an Authorization header', () => {
    const { logger, lines } = recordingLogger();
    logger.info({ req: { headers: { authorization: 'Bearer v4.public.secret' } }, body: { email: 'a@b.c', password: 'hunter22' } }, 'request');
    logger.warn({ password: 'hunter22', access_token: 'v4.public.secret', refresh_token: 'ses_x.secret' }, 'login');
    logger.error({ pair: { accessToken: 'v4.public.secret', refreshToken: 'ses_x.secret' } }, 'oops');
    const text = JSON.stringify(lines);
    expect(text).not.to.include('hunter22');
    expect(text).not.to.include('secret');
    expect(text).to.include('a@b.c');
    expect(text).to.include('[redacted]');
  });

  it('writes nothing at level silent', () => {
    const { logger } = recordingLogger();
    logger.level = 'silent';
    expect(logger.isLevelEnabled('fatal')).to.equal(false);
  });
});
