/**
 * `pnpm storefront <command>`: the operator CLI. It builds the same container as the server from
 * the same environment, runs one command against the configured database, and exits: 0 on success, 1
 * when the command failed, 2 for a usage error.
 *
 * stdout carries the command's output and nothing else (`menu export > menu.json` must parse): the
 * logger, warnings and usage errors go to stderr.
 */
import 'reflect-metadata';
import { resolve } from './binding.js';
import { CliError, runCommand, runOffline, USAGE } from './cli/commands.js';
import { migrateDatabase } from './cli/db-migrate.js';
import { readPassword } from './cli/password.js';
import { ConfigError, loadConfig } from './config.js';
import { createContainer } from './container.js';
import { TYPES } from './identifiers.js';
import { pino } from 'pino';
import { createLogger } from './logger.js';

const args = process.argv.slice(2);
const io = {
  out: (text: string) => process.stdout.write(`${text}\n`),
  readPassword: () => readPassword(process.stdin, process.stderr),
  readSecret: () => readPassword(process.stdin, process.stderr, 'Secret key'),
};

async function main(): Promise<number> {
  if (args.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (args[0] === '--help' || args[0] === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (await runOffline(args, io)) return 0;
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  if (args[0] === 'db' && args[1] === 'migrate' && args.length === 2) {
    await migrateDatabase(config, io, (message) => process.stderr.write(`storefront: ${message}\n`));
    return 0;
  }
  if (config.database === 'memory') {
    process.stderr.write('storefront: STOREFRONT_STORE=memory keeps nothing after this command exits; set STOREFRONT_STORE=mongo or postgres to change a real store\n');
  }
  const container = createContainer(config, createLogger(config, pino.destination({ dest: 2, sync: true })));
  try {
    await waitForDatabase(resolve(container, TYPES.DatabaseReady), config.database === 'postgres' ? 'DATABASE_URL' : 'MONGODB_URI');
    await runCommand(resolve(container, TYPES.Storefront), args, io);
    return 0;
  } finally {
    await container.unbindAllAsync();
  }
}

/** A command against a database that is not up fails after a while instead of waiting forever. */
async function waitForDatabase(ready: () => Promise<void>, variable: string, timeoutMs = 30_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CliError(`the store was not reachable within ${timeoutMs / 1000} s (check ${variable})`)), timeoutMs);
  });
  try {
    await Promise.race([ready(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof CliError || error instanceof ConfigError) {
    process.stderr.write(`storefront: ${error.message}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  } else {
    process.stderr.write(`storefront: the command failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
