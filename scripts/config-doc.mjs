#!/usr/bin/env node
/**
 * Writes docs/configuration.md, the table of every environment variable, from the configuration
 * code (packages/app/src/config-reference.ts). Needs the build: `pnpm build && pnpm docs:config`.
 * packages/app/test/ops/configuration-doc.spec.ts fails when the file and the code disagree.
 */
import { writeFileSync } from 'node:fs';

const { CONFIGURATION_DOC, renderConfigurationDoc } = await import('../packages/app/dist/src/config-reference.js');
writeFileSync(new URL(`../${CONFIGURATION_DOC}`, import.meta.url), renderConfigurationDoc());
process.stdout.write(`wrote ${CONFIGURATION_DOC}\n`);
