/**
 * The Mailer of password reset emails (@storefront/adapters-mail): SMTP with SMTP_URL; without it,
 * only the demo writes each message (with its link) to the log; otherwise there is none, so a reset
 * link (a credential) never lands in a log outside the demo, and a reset that would send one logs
 * an error without it. The SMTP pool closes on unload, after the server's bounded wait (server.ts).
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
