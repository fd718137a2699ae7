/**
 * The configuration's own list of variables, read from loadConfig itself: it is run with a
 * recording observer in each mode (so that variables read only in one mode are found), and once
 * per variable with a bad value (so that the table says what loadConfig answers). Only the
 * meaning of each variable is written by hand (config-variables.ts). docs/configuration.md is
 * rendered from this by `pnpm docs:config`; a test holds the file to it.
 */
import { ConfigError, loadConfig, type Env } from './config.js';
import { VARIABLE_NOTES } from './config-variables.js';

export interface ConfigVariable {
  readonly name: string;
  /** The value used when the variable is unset, as the table shows it. */
  readonly default: string;
  readonly meaning: string | undefined;
  /** What a bad value does. */
  readonly bad: string;
}

/** The modes that read variables of their own (a database URL, the metrics listener's host, Stripe's keys). */
const CONTEXTS: readonly Env[] = [{}, { METRICS_PORT: '9100' }, { STOREFRONT_STORE: 'postgres' }, { STOREFRONT_STORE: 'mongo' }, { STOREFRONT_PAYMENTS: 'stripe' }];
/** Values that no variable accepts as given, tried in turn: a word, then an over-long text. */
const PROBES: readonly string[] = ['not-valid', 'x'.repeat(1000)];

export function configVariables(): ConfigVariable[] {
  const seen = new Map<string, { context: Env; fallback: unknown }>();
  for (const context of CONTEXTS) {
    tryLoad(context, (name, fallback) => {
      const known = seen.get(name);
      if (known === undefined) seen.set(name, { context, fallback });
      else if (known.fallback === undefined && fallback !== undefined && known.context === context) seen.set(name, { context, fallback });
    });
  }
  return [...seen.entries()]
    .map(([name, { context, fallback }]) => {
      const note = VARIABLE_NOTES[name];
      return { name, default: note?.default ?? showDefault(fallback), meaning: note?.meaning, bad: note?.bad ?? badValue(name, context) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Every variable's name, for checks of deployment files (compose.yaml). */
export function configVariableNames(): Set<string> {
  return new Set(configVariables().map((variable) => variable.name));
}

function badValue(name: string, context: Env): string {
  const before = new Set(issuesOf(context, name));
  for (const probe of PROBES) {
    const added = issuesOf({ ...context, [name]: probe }, name).filter((message) => !before.has(message));
    if (added.length > 0) return `Stops the start: “${added.join(' ')}”`;
  }
  return '';
}

function issuesOf(env: Env, name: string): string[] {
  return tryLoad(env).filter((issue) => issue.variable === name).map((issue) => issue.message);
}

function tryLoad(env: Env, observe?: (name: string, fallback: unknown) => void): readonly { variable: string; message: string }[] {
  try {
    loadConfig(env, observe);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
}

function showDefault(fallback: unknown): string {
  if (fallback === undefined) return 'unset';
  return `\`${String(fallback)}\``;
}

export const CONFIGURATION_DOC = 'docs/configuration.md';
export const REGENERATE = 'pnpm build && pnpm docs:config (or npm run docs:config after npm test)';

/** docs/configuration.md: one table, every variable. */
export function renderConfigurationDoc(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = configVariables().map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.meaning ?? '*(not described: add it to packages/app/src/config-variables.ts)*')} | ${cell(v.bad)} |`);
  return [
    '# Configuration reference',
    '',
    '<!-- Generated from packages/app/src/config.ts and config-variables.ts by `pnpm docs:config`: do not edit. -->',
    '',
    'Every environment variable the service reads, with its value when unset and what a bad value does.',
    'A variable set to an empty string counts as unset. The configuration is checked when the process',
    'starts: every bad value is reported at once, one line each naming the variable, and the process',
    'exits with status 1 before it listens.',
    '',
    '| Variable | Default | Meaning | A bad value |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
