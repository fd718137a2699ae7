/**
 * Reads a menu file (STOREFRONT_MENU_FILE) from disk. Only reading and JSON parsing happen here;
 * validating the document is the domain's `parseMenuDocument`, run by `importMenu`.
 */
import { readFile } from 'node:fs/promises';

/** A menu file could not be read or is not JSON; the message names the file. */
export class MenuFileError extends Error {
  constructor(
    readonly path: string,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'MenuFileError';
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function loadMenuFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new MenuFileError(path, `Cannot read the menu file ${path}: ${reason(error)}`, { cause: error });
  }
  try {
    // Editors on Windows may save a byte-order mark, which JSON.parse rejects.
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new MenuFileError(path, `The menu file ${path} is not valid JSON: ${reason(error)}`, { cause: error });
  }
}
