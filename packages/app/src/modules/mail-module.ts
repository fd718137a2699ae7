/**
 * The Mailer of the password reset emails (@storefront/adapters-mail): SMTP with SMTP_URL; without
 * it, only the demo (STOREFRONT_DEMO_DATA) writes each message to the log at info (it reads the link
 * there); otherwise there is none, whatever the database, so that a reset link (a credential) never
 * lands in a log outside the demo: each reset request that would send one is logged as an error
 * instead, without the link (the domain makes no token when there is no mailer). The SMTP pool is
 * closed when the container is unloaded, after the server has waited (bounded) for the emails
 * under way (server.ts).
 */
import { createMailer, type Mailers } from '@storefront/adapters-mail';
import { ContainerModule } from 'inversify';
import type { StorefrontConfig } from '../config.js';
import { TYPES } from '../identifiers.js';
import type { Logger } from '../logger.js';

export function mailModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<Mailers | undefined>(TYPES.Mailers)
      .toResolvedValue((config: StorefrontConfig, logger: Logger) => mailersFor(config, logger), [TYPES.Config, TYPES.Logger])
      .inSingletonScope()
      .onDeactivation(async (mailers) => mailers?.close());
  });
}

export function mailersFor(config: StorefrontConfig, logger: Logger): Mailers | undefined {
  const { smtpUrl, from } = config.mail;
  if (smtpUrl === undefined && !config.demoData) return undefined;
  return createMailer({
    smtpUrl,
    from,
    // The demo only: the whole message, link included.
    log: (mail) => logger.info({ mail }, `email to ${mail.to} (written to the log: SMTP_URL is not set)`),
    onRetry: (event) => logger.warn({ mail_retry: event }, 'email: the mail server failed; retrying'),
  });
}
