/**
 * What every CLI command shares: its input and output, and its failure (a message and an exit
 * code, never a stack trace).
 */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly readPassword: () => Promise<string>;
  /** A secret such as a key: from stdin, or a prompt with echo off. Never an argument. */
  readonly readSecret: () => Promise<string>;
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
