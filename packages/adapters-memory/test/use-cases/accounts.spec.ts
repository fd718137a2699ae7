/**
 * Customers on their own: sign-up, password reset by email, erasure (DECISIONS "Accounts"), on the
 * memory adapters with real scrypt and PASETO, a recording Mailer and a hand-moved clock.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { CustomerRepository, DomainError, Mailer, StorefrontOptions } from '@storefront/domain';
import type { MailMessage } from '@storefront/domain/adapter-kit';
import { createHash } from 'node:crypto';
import { DomainError as Refusal } from '@storefront/domain';
import { PASSWORD_RESET_TTL_SECONDS } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { aLoggedInCustomer, aWorld, withMenu, type World } from './world.js';

const LINK = 'https://shop.example/reset?token=';
const CLIENT = '198.51.100.20';

/** Keeps every message; `failWith` makes the next sends reject as a mail server that gave up. */
class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failWith: Error | undefined;

  async send(message: MailMessage): Promise<void> {
    if (this.failWith !== undefined) throw this.failWith;
    this.sent.push(message);
  }
}

interface AccountsWorld extends World {
  readonly mailer: RecordingMailer;
  readonly reported: { error: unknown; task: string }[];
  readonly lookups: { count: number };
}

function anAccountsWorld(options: StorefrontOptions = {}): AccountsWorld {
  const mailer = new RecordingMailer();
  const reported: { error: unknown; task: string }[] = [];
  const lookups = { count: 0 };
  let world!: World;
  // Counts the email look-ups, to see when a reset request does its account-dependent work.
  const customers: CustomerRepository = new Proxy({} as CustomerRepository, {
    get: (_target, name: keyof CustomerRepository) => {
      const real = world.adapters.customers;
      if (name === 'findByEmail') return (email: string) => ((lookups.count += 1), real.findByEmail(email));
      const member = real[name];
      return typeof member === 'function' ? member.bind(real) : member;
    },
  });
  world = aWorld(
    { passwordResetUrl: LINK, store: { name: 'Trattoria' }, background: { onError: (error, task) => reported.push({ error, task }) }, ...options },
    { mailer, customers },
  );
  return { ...world, mailer, reported, lookups };
}

const signUpInput = (overrides: Record<string, unknown> = {}) => ({
  email: 'erin@example.com',
  password: 'erin-password',
  name: 'Erin',
  client: CLIENT,
  ...overrides,
});

/** The token of the last reset email (the end of its link). */
function tokenOf(world: AccountsWorld): string {
  const text = world.mailer.sent.at(-1)?.text ?? '';
  const link = text.split('\n').find((line) => line.startsWith(LINK));
  if (link === undefined) throw new Error(`no reset link in ${JSON.stringify(text)}`);
  return link.slice(LINK.length);
}

async function requestReset(world: AccountsWorld, email: string): Promise<void> {
  await world.storefront.requestPasswordReset.execute({ email, client: CLIENT });
  await world.storefront.background.settled();
}

describe('Accounts: sign-up', () => {
  it('creates a customer account, logged in, with the email normalised and the name trimmed', async () => {
    const world = anAccountsWorld();
    const pair = await world.storefront.signUp.execute(signUpInput({ email: '  Erin@Example.COM ', name: '  Erin  ' }));
    const caller = await world.storefront.authenticate.execute(pair.accessToken);
    expect(caller.customer).to.include({ email: 'erin@example.com', name: 'Erin', role: 'customer', disabled: false });
    expect(pair.tokenType).to.equal('Bearer');
    const login = await world.storefront.login.execute({ email: 'erin@example.com', password: 'erin-password', client: CLIENT });
    expect(login.accessToken).to.be.a('string');
  });

  it('refuses bad fields, naming each, before spending the quota or a hash', async () => {
    const world = anAccountsWorld({ registerPolicy: { name: 'register', limit: 1, windowSeconds: 3600 } });
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-email' }, 'email'],
      [{ email: 42 }, 'email'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ password: 'x'.repeat(7) }, 'password'],
      [{ password: 'x'.repeat(129) }, 'password'],
      [{ password: undefined }, 'password'],
      // Counted in characters (code points), not UTF-16 units: 7 emoji are 14 units and still too short.
      [{ password: '😀'.repeat(7) }, 'password'],
      [{ name: '😀'.repeat(101) }, 'name'],
    ];
    for (const [overrides, field] of cases) {
      const error = (await expectDomainError(world.storefront.signUp.execute(signUpInput(overrides)), 'validation_failed')) as DomainError;
      expect(error.details?.map((d) => d.path), JSON.stringify(overrides)).to.deep.equal([field]);
    }
    expect(world.hasher.hashes).to.equal(0);
    // Limits: 8 and 128 characters are both fine, and the one sign-up allowed is still there.
    await world.storefront.signUp.execute(signUpInput({ password: '😀'.repeat(128), name: '😀'.repeat(100) }));
    expect(await world.adapters.customers.findByEmail('erin@example.com')).to.not.equal(null);
  });

  it('takes only a plain address: no lookalikes, no second recipient, no display name', async () => {
    const world = anAccountsWorld({ registerPolicy: { name: 'register', limit: 100, windowSeconds: 3600 } });
    const refused = ['alice@example.com\u0000', 'z2<victim@evil.test>', 'root,postmaster,z1@x.test', 'a;b@x.test', '"a b"@x.test', 'a b@x.test', 'alice@example.com\u200b', 'a..b@x.test', 'a@localhost', 'a@-x.test', `${'a'.repeat(65)}@x.test`, 'a\r\nRCPT TO:<b@x.test>@x.test'];
    for (const email of refused) {
      const error = (await expectDomainError(world.storefront.signUp.execute(signUpInput({ email })), 'validation_failed')) as DomainError;
      expect(error.details?.map((d) => d.path), JSON.stringify(email)).to.deep.equal(['email']);
    }
    for (const [i, email] of ['bob+tag@example.com', "o'brien@mail.example.co.uk", 'josé@exämple.de', 'x_y-z@xn--bcher-kva.example'].entries()) {
      await world.storefront.signUp.execute(signUpInput({ email, name: `Plain ${i}` }));
    }
    // The operator's CLI takes the same addresses only.
    await expectDomainError(world.storefront.registerCustomer.execute({ email: 'z2<victim@evil.test>', name: 'Z', password: 'z-password' }), 'validation_failed');
  });

  it('answers a login with an address that is not one invalid_credentials, after the same hash', async () => {
    const world = anAccountsWorld();
    const verifications = world.hasher.verifications;
    const lookups = world.lookups.count;
    await expectDomainError(world.storefront.login.execute({ email: 'z2<victim@evil.test>', password: 'whatever-1', client: CLIENT }), 'invalid_credentials');
    expect(world.hasher.verifications).to.equal(verifications + 1);
    expect(world.lookups.count, 'never looked up').to.equal(lookups);
  });

  it('answers email_taken for an address in use in any letter case, without hashing', async () => {
    const world = anAccountsWorld();
    await world.storefront.signUp.execute(signUpInput());
    const hashes = world.hasher.hashes;
    await expectDomainError(world.storefront.signUp.execute(signUpInput({ email: 'ERIN@example.com', name: 'Other' })), 'email_taken');
    expect(world.hasher.hashes).to.equal(hashes);
  });

  it('lets exactly one of 20 racing sign-ups with one email through', async () => {
    const world = anAccountsWorld({ registerPolicy: { name: 'register', limit: 100, windowSeconds: 3600 } });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => world.storefront.signUp.execute(signUpInput({ email: i % 2 === 0 ? 'race@example.com' : 'RACE@example.com', name: `Racer ${i}` }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as DomainError).code] : []));
    expect(refused).to.deep.equal(Array(19).fill('email_taken'));
  });

  it('limits sign-ups per client (default 5 per hour), not per email', async () => {
    const world = anAccountsWorld();
    for (let i = 0; i < 5; i++) await world.storefront.signUp.execute(signUpInput({ email: `u${i}@example.com` }));
    const refused = (await expectDomainError(world.storefront.signUp.execute(signUpInput({ email: 'u5@example.com' })), 'rate_limited')) as DomainError;
    expect(refused.retryAfterSeconds).to.be.greaterThan(0);
    // A taken email counts too: the limit is what stops harvesting addresses.
    await world.storefront.signUp.execute(signUpInput({ email: 'u5@example.com', client: '198.51.100.21' }));
    world.clock.advance(3600 * 1000);
    await world.storefront.signUp.execute(signUpInput({ email: 'u6@example.com' }));
  });
});

describe('Accounts: password reset', () => {
  it('emails an active account one link with a token stored only hashed, good for 30 minutes', async () => {
    const world = anAccountsWorld();
    const { email } = await aLoggedInCustomer(world);
    await requestReset(world, '  DANA@example.com ');
    expect(world.mailer.sent).to.have.length(1);
    const [message] = world.mailer.sent;
    expect(message).to.include({ to: email, subject: 'Reset your Trattoria password' });
    const token = tokenOf(world);
    expect(token).to.match(/^[0-9a-z]{43}$/);
    const now = world.clock.now();
    expect(await world.adapters.resetTokens.find(token, now)).to.equal(null);
    const stored = await world.adapters.resetTokens.find(createHash('sha256').update(token).digest('hex'), now);
    expect(stored?.expiresAt.getTime()).to.equal(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000);
  });

  it('answers known, unknown and disabled emails alike, before any account is looked up', async () => {
    const world = anAccountsWorld();
    await aLoggedInCustomer(world);
    await world.storefront.registerCustomer.execute({ email: 'off@example.com', name: 'Off', password: 'off-password', disabled: true });
    for (const email of ['dana@example.com', 'nobody@example.com', 'off@example.com']) {
      const lookups = world.lookups.count;
      const answer = await world.storefront.requestPasswordReset.execute({ email, client: CLIENT });
      expect(answer, email).to.equal(undefined);
      expect(world.lookups.count, `${email}: looked up on the answer's path`).to.equal(lookups);
      await world.storefront.background.settled();
      expect(world.lookups.count, email).to.equal(lookups + 1);
    }
    expect(world.mailer.sent.map((m) => m.to)).to.deep.equal(['dana@example.com']);
    expect(world.reported).to.deep.equal([]);
  });

  it('sends nothing for an address that is not one, even to an account stored with it before the rule', async () => {
    const world = anAccountsWorld();
    const { email } = await aLoggedInCustomer(world);
    // An account made before the address rule, with a lookalike address.
    const lookalike = { ...(await world.adapters.customers.findByEmail(email))!, customerId: 'cus_lookalike', email: 'z2<victim@evil.test>' };
    await world.adapters.customers.create(lookalike);
    await requestReset(world, 'z2<victim@evil.test>');
    expect(world.mailer.sent).to.deep.equal([]);
    expect(world.reported).to.deep.equal([]);
  });

  it('limits requests per client and per email like logins', async () => {
    const world = anAccountsWorld({ loginPolicy: { name: 'login', limit: 2, windowSeconds: 60 } });
    await world.storefront.requestPasswordReset.execute({ email: 'a@example.com', client: 'c1' });
    await world.storefront.requestPasswordReset.execute({ email: 'a@example.com', client: 'c2' });
    await expectDomainError(world.storefront.requestPasswordReset.execute({ email: 'A@example.com', client: 'c3' }), 'rate_limited');
    await world.storefront.requestPasswordReset.execute({ email: 'b@example.com', client: 'c1' });
    await expectDomainError(world.storefront.requestPasswordReset.execute({ email: 'c@example.com', client: 'c1' }), 'rate_limited');
  });

  it('still answers when the mail cannot be sent, and reports the failure', async () => {
    const world = anAccountsWorld();
    await aLoggedInCustomer(world);
    world.mailer.failWith = new Error('mail server gave up after 5 attempts');
    await world.storefront.requestPasswordReset.execute({ email: 'dana@example.com', client: CLIENT });
    await world.storefront.background.settled();
    expect(world.reported.map((r) => [(r.error as Error).message, r.task])).to.deep.equal([['mail server gave up after 5 attempts', 'password reset email']]);
  });

  it('reports that no Mailer is configured instead of dropping the email silently', async () => {
    const reported: unknown[] = [];
    const world = aWorld({ background: { onError: (error) => reported.push(error) } });
    await aLoggedInCustomer(world);
    await world.storefront.requestPasswordReset.execute({ email: 'dana@example.com', client: CLIENT });
    await world.storefront.background.settled();
    expect(reported.map((e) => (e as Error).message)).to.deep.equal(['no Mailer is configured: the password reset email cannot be sent']);
  });

  it('sets the new password with the token once, and revokes every session of the account', async () => {
    const world = anAccountsWorld();
    const { pair, password } = await aLoggedInCustomer(world);
    const second = await world.storefront.login.execute({ email: 'dana@example.com', password, client: 'phone' });
    await requestReset(world, 'dana@example.com');
    const token = tokenOf(world);

    await world.storefront.confirmPasswordReset.execute({ token, password: 'a-new-password' });

    for (const session of [pair, second]) {
      await expectDomainError(world.storefront.authenticate.execute(session.accessToken), 'invalid_token');
      await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: session.refreshToken }), 'invalid_token');
    }
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password, client: CLIENT }), 'invalid_credentials');
    await world.storefront.login.execute({ email: 'dana@example.com', password: 'a-new-password', client: CLIENT });
    await expectDomainError(world.storefront.confirmPasswordReset.execute({ token, password: 'yet-another-one' }), 'invalid_reset_token');
  });

  it('refuses an expired token, and an unknown one without computing a hash', async () => {
    const world = anAccountsWorld();
    await aLoggedInCustomer(world);
    await requestReset(world, 'dana@example.com');
    const token = tokenOf(world);
    world.clock.advance(PASSWORD_RESET_TTL_SECONDS * 1000 + 1);
    await expectDomainError(world.storefront.confirmPasswordReset.execute({ token, password: 'a-new-password' }), 'invalid_reset_token');
    const hashes = world.hasher.hashes;
    await expectDomainError(world.storefront.confirmPasswordReset.execute({ token: 'x'.repeat(43), password: 'a-new-password' }), 'invalid_reset_token');
    expect(world.hasher.hashes).to.equal(hashes);
  });

  it('keeps the token usable after a refusal that changed nothing (a short password, a busy hasher)', async () => {
    const world = anAccountsWorld();
    await aLoggedInCustomer(world);
    await requestReset(world, 'dana@example.com');
    const token = tokenOf(world);
    await expectDomainError(world.storefront.confirmPasswordReset.execute({ token, password: 'short' }), 'validation_failed');
    const { hash } = world.hasher;
    world.hasher.hash = () => Promise.reject(new Refusal('service_unavailable', 'Busy.', { retryAfterSeconds: 1 }));
    await expectDomainError(world.storefront.confirmPasswordReset.execute({ token, password: 'a-new-password' }), 'service_unavailable');
    world.hasher.hash = hash;
    await world.storefront.confirmPasswordReset.execute({ token, password: 'a-new-password' });
  });

  it('spends the account\'s other tokens with the one used', async () => {
    const world = anAccountsWorld();
    await aLoggedInCustomer(world);
    await requestReset(world, 'dana@example.com');
    const first = tokenOf(world);
    await requestReset(world, 'dana@example.com');
    const second = tokenOf(world);
    await world.storefront.confirmPasswordReset.execute({ token: second, password: 'a-new-password' });
    await expectDomainError(world.storefront.confirmPasswordReset.execute({ token: first, password: 'another-password' }), 'invalid_reset_token');
  });

  it('lets one of two racing confirmations with one token through', async () => {
    const world = anAccountsWorld();
    await aLoggedInCustomer(world);
    await requestReset(world, 'dana@example.com');
    const token = tokenOf(world);
    const results = await Promise.allSettled(['first-password', 'second-password'].map((password) => world.storefront.confirmPasswordReset.execute({ token, password })));
    expect(results.map((r) => r.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
  });
});

describe('Accounts: erasure', () => {
  it('refuses a wrong password and changes nothing', async () => {
    const world = anAccountsWorld();
    const { pair } = await aLoggedInCustomer(world);
    const caller = await world.storefront.authenticate.execute(pair.accessToken);
    await expectDomainError(world.storefront.eraseAccount.execute({ caller, password: 'wrong-password', client: 'test' }), 'invalid_credentials');
    await world.storefront.authenticate.execute(pair.accessToken);
  });

  it('erases the account and its sessions, keeps its orders as `deleted`, and frees the email', async () => {
    const world = anAccountsWorld();
    const { soup } = await withMenu(world);
    const { pair, password, profile } = await aLoggedInCustomer(world);
    const { order } = await world.storefront.placeOrder.execute({ customerId: profile.customerId, items: [{ productId: soup.productId, quantity: 1 }] });
    await requestReset(world, 'dana@example.com');
    const token = tokenOf(world);
    const caller = await world.storefront.authenticate.execute(pair.accessToken);

    await world.storefront.eraseAccount.execute({ caller, password, client: 'test' });

    expect(await world.adapters.customers.findById(profile.customerId)).to.equal(null);
    await expectDomainError(world.storefront.authenticate.execute(pair.accessToken), 'invalid_token');
    await expectDomainError(world.storefront.refreshSession.execute({ refreshToken: pair.refreshToken }), 'invalid_token');
    await expectDomainError(world.storefront.login.execute({ email: 'dana@example.com', password, client: CLIENT }), 'invalid_credentials');
    expect(await world.adapters.resetTokens.find(createHash('sha256').update(token).digest('hex'), world.clock.now()), 'a reset token kept').to.equal(null);
    await expectDomainError(world.storefront.confirmPasswordReset.execute({ token, password: 'a-new-password' }), 'invalid_reset_token');
    const queue = await world.storefront.listKitchenOrders.execute({});
    expect(queue.items.map((o) => o.orderId)).to.deep.equal([order.orderId]);
    expect(await world.storefront.labelCustomers.execute([profile.customerId])).to.deep.equal(new Map([[profile.customerId, 'deleted']]));

    const again = await world.storefront.signUp.execute(signUpInput({ email: 'dana@example.com', name: 'Dana again' }));
    const newcomer = await world.storefront.authenticate.execute(again.accessToken);
    expect(newcomer.customer.customerId).to.not.equal(profile.customerId);
    expect((await world.storefront.listOrders.execute({ customerId: newcomer.customer.customerId })).total).to.equal(0);
  });
});
