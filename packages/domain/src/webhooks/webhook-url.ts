/**
 * The shape of a webhook URL, before the address rules (WebhookUrlPolicy) look at where it points:
 * absolute, `https:` (or `http:` when allowed), no user name or password (they would be sent to
 * whoever answers, and logged), at most WEBHOOK_LIMITS.urlMaxLength characters. The URL is kept as
 * WHATWG URL serialises it, so that the policy, the store and the sender all read the same text.
 */
import { TEXT_RULE, textFits } from '../shared/text.js';
import { characterCount, type Issues } from '../shared/validation.js';
import { WEBHOOK_LIMITS } from './model.js';

interface ParsedUrl {
  readonly href: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
}
// The domain is compiled without DOM or Node types; every runtime we target has WHATWG URL.
const runtime = globalThis as unknown as { URL: new (url: string) => ParsedUrl };

/** The URL as it will be stored, or '' with an issue on `url`. */
export function checkWebhookUrl(url: unknown, allowHttp: boolean, issues: Issues): string {
  const refusal = refusalOf(url, allowHttp);
  if (typeof refusal === 'string') {
    issues.add('url', refusal);
    return '';
  }
  return refusal.href;
}

function refusalOf(url: unknown, allowHttp: boolean): string | ParsedUrl {
  const schemes = allowHttp ? 'an https:// or http:// URL' : 'an https:// URL';
  if (typeof url !== 'string' || url.trim() === '') return `must be ${schemes}`;
  if (characterCount(url) > WEBHOOK_LIMITS.urlMaxLength) return `must be at most ${WEBHOOK_LIMITS.urlMaxLength} characters`;
  // WHATWG URL would drop a tab or newline and escape other controls: the stored URL would not be the one given.
  if (!textFits(url, 'line')) return TEXT_RULE.line.message;
  let parsed: ParsedUrl;
  try {
    parsed = new runtime.URL(url.trim());
  } catch {
    return `must be ${schemes}`;
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) return `must be ${schemes}`;
  if (parsed.username !== '' || parsed.password !== '') return 'must not hold a user name or password';
  if (parsed.hostname === '') return 'must name a host';
  if (characterCount(parsed.href) > WEBHOOK_LIMITS.urlMaxLength) return `must be at most ${WEBHOOK_LIMITS.urlMaxLength} characters`;
  return parsed;
}
