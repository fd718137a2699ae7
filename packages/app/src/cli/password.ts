/**
 * Reads a password for `customers add` (or another secret, `keys public`): from a prompt with echo
 * off on a terminal, else the whole of standard input (one trailing newline dropped). Never from an
 * argument, which would end up in shell history and process listings.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export async function readPassword(input: Readable & { isTTY?: boolean }, output: Writable, label = 'Password'): Promise<string> {
  if (input.isTTY === true) return prompt(input, output, label);
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function prompt(input: Readable, output: Writable, label: string): Promise<string> {
  return new Promise((resolve) => {
    const muted = { write: (text: string): boolean => (text.startsWith(label) ? output.write(text) : true) };
    const rl = createInterface({ input, output: muted as unknown as Writable, terminal: true });
    rl.question(`${label}: `, (answer) => {
      rl.close();
      output.write('\n');
      resolve(answer);
    });
  });
}
