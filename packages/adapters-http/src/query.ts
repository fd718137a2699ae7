/** Strict query-string reading: one value per parameter, integers written as plain digits. */
import type { FieldIssue } from '@storefront/domain';
import type { Context } from 'koa';
import { validationProblem } from './problem.js';

export function readString(ctx: Context, name: string, issues: FieldIssue[]): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) {
    issues.push({ path: name, message: 'must be given once' });
    return undefined;
  }
  return value;
}

export function readInteger(ctx: Context, name: string, issues: FieldIssue[]): number | undefined {
  const raw = readString(ctx, name, issues);
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    issues.push({ path: name, message: 'must be a positive integer' });
    return undefined;
  }
  return Number(raw);
}

export function readPaging(ctx: Context): { page: number | undefined; limit: number | undefined } {
  const issues: FieldIssue[] = [];
  const page = readInteger(ctx, 'page', issues);
  const limit = readInteger(ctx, 'limit', issues);
  if (issues.length > 0) throw validationProblem(issues);
  return { page, limit };
}
