/**
 * JSON request bodies through koa-body, size-limited while reading (an oversized body is refused
 * from its Content-Length before a byte is parsed). Failures become clear 4xx problems.
 */
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { HttpProblem } from '../problem.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

export function jsonBody(limitBytes: number): Middleware {
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limitBytes,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: ['POST' as never],
    onError: (error) => {
      throw toProblem(error, limitBytes);
    },
  });
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && ctx.is(JSON_TYPES) === false) {
      throw new HttpProblem(415, 'unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
    }
    await parse(ctx, next);
  };
}

function toProblem(error: Error, limitBytes: number): HttpProblem {
  const status = (error as { status?: number }).status;
  if (status === 413) {
    return new HttpProblem(413, 'payload_too_large', `The body is larger than ${limitBytes} bytes.`);
  }
  if (status === 415) {
    return new HttpProblem(415, 'unsupported_media_type', 'The body must be UTF-8 JSON.');
  }
  return new HttpProblem(400, 'invalid_json', 'The body is not valid JSON: send a JSON object.');
}
