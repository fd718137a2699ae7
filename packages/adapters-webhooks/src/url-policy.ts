/**
 * The WebhookUrlPolicy port at registration: the host must not be a `localhost` name nor resolve
 * to any non-public address (every address dns.lookup answers: the sender may connect to any). The
 * sender checks again at every delivery (DNS can change). The URL's shape is the domain's
 * checkWebhookUrl, checked before: here only where it points.
 */
import { lookup } from 'node:dns/promises';
import type { WebhookUrlPolicy } from '@storefront/domain';
import { isLocalhostName, literalAddress, refusedAddress } from './address-rules.js';
import { parseWebhookUrl } from './webhook-url.js';

export interface WebhookUrlPolicyOptions {
  /** WEBHOOK_ALLOW_PRIVATE: no address rule at all (tests, demos, a POS on the local network). */
  readonly allowPrivate: boolean;
  /** Resolves a host name to every address of it (default dns.lookup with `all`); tests replace it. */
  readonly resolve?: ((hostname: string) => Promise<readonly string[]>) | undefined;
}

export function createWebhookUrlPolicy(options: WebhookUrlPolicyOptions): WebhookUrlPolicy {
  const resolve = options.resolve ?? resolveAll;
  return {
    async check(text) {
      const parsed = parseWebhookUrl(text, true);
      if (!parsed.ok) return parsed.reason;
      if (options.allowPrivate) return null;
      const { hostname } = parsed.url;
      if (isLocalhostName(hostname)) return `${hostname} is this machine, not a public host`;
      const literal = literalAddress(hostname);
      if (literal !== undefined) return refusedAddress(literal);
      let addresses: readonly string[];
      try {
        addresses = await resolve(hostname);
      } catch {
        return `${hostname} does not resolve`;
      }
      if (addresses.length === 0) return `${hostname} does not resolve`;
      for (const address of addresses) {
        const reason = refusedAddress(address);
        if (reason !== null) return `${hostname} resolves to ${reason}`;
      }
      return null;
    },
  };
}

async function resolveAll(hostname: string): Promise<readonly string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}
