/**
 * A webhook URL as both the registration check and the sender read it: WHATWG URL parsing (so the
 * host is normalised the same way every time: `0x7f.1`, `2130706433` and `0177.0.0.1` all become
 * `127.0.0.1`), `https:` only unless http is allowed, no credentials.
 */
export type ParsedWebhookUrl = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

export function parseWebhookUrl(text: string, allowHttp: boolean): ParsedWebhookUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'is not a URL' };
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    return { ok: false, reason: allowHttp ? 'must be an http:// or https:// URL' : 'must be an https:// URL' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not carry a user name or password' };
  return { ok: true, url };
}
