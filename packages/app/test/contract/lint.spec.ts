/**
 * `redocly lint packages/adapters-http/openapi.yaml`, as a reviewer or a checker runs it (from the repository root,
 * its recommended rules unless a redocly.yaml says otherwise), reports nothing: no error and no
 * warning. A warning is a reading of the document some tool will get wrong, or dead weight.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { OPENAPI_PATH, repositoryRoot } from './document-path.js';

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number };
  readonly problems: readonly { readonly ruleId: string; readonly severity: string; readonly message: string; readonly location?: readonly { readonly pointer?: string }[] }[];
}

const LINT_TIMEOUT_MS = 60_000;

/** Runs the Redocly CLI of node_modules/.bin with JSON output; resolves with its report. */
export function redoclyLint(file: string): Promise<LintReport> {
  const root = repositoryRoot();
  return new Promise((resolve, reject) => {
    execFile(
      join(root, 'node_modules', '.bin', 'redocly'),
      ['lint', file, '--format=json'],
      // No telemetry or update check: the test must not depend on the network.
      { cwd: root, timeout: LINT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      (error, stdout, stderr) => {
        // Errors make the CLI exit 1 with the report still on stdout; anything else is a failure to run.
        try {
          resolve(JSON.parse(stdout) as LintReport);
        } catch {
          reject(new Error(`redocly lint gave no JSON report (${error?.message ?? 'exit 0'}): ${stdout.slice(0, 500)} ${stderr.slice(-1000)}`));
        }
      },
    );
  });
}

describe('redocly lint packages/adapters-http/openapi.yaml', function () {
  this.timeout(LINT_TIMEOUT_MS + 5_000);

  it('reports no error and no warning', async () => {
    const report = await redoclyLint(OPENAPI_PATH);
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location?.[0]?.pointer ?? '?'}: ${p.message}`);
    expect(problems).to.deep.equal([]);
    expect(report.totals).to.include({ errors: 0, warnings: 0 });
  });
});
