/**
 * Checks that could silently not run: a committed `.only` (it skips every other test of its
 * file). ESLint rejects it everywhere (`npm test` lints first) and vitest refuses it when CI is
 * set (allowOnly in every vitest project, root and e2e configs).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('eslint forbids .only', () => {
  const eslint = new ESLint({ cwd: ROOT });
  // an existing test file of the server project (typed linting needs a file of a tsconfig)
  const filePath = path.join(ROOT, 'apps/server/test/ci-guards.test.ts');
  const onlyErrors = async (code: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId === 'no-restricted-syntax');

  it.each([
    "it.only('x', () => undefined);",
    "test.only('x', () => undefined);",
    "describe.only('x', () => undefined);",
    "describe.only.each([1])('x %s', () => undefined);",
    "it.concurrent.only('x', () => undefined);",
  ])('%s is an error', async (line) => {
    const code = `import { describe, it, test } from 'vitest';\nvoid describe;\nvoid it;\nvoid test;\n${line}\n`;
    const errors = await onlyErrors(code);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.severity).toBe(2);
    expect(errors[0]!.message).toMatch(/\.only/);
  });

  it('plain tests, skips and a property named only elsewhere are fine', async () => {
    const code =
      "import { describe, it } from 'vitest';\n" +
      "describe('x', () => { it.skip('y', () => undefined); it('z', () => undefined); });\n" +
      'const o = { only: 1 };\nvoid o.only;\n';
    expect(await onlyErrors(code)).toEqual([]);
  });
});

describe('vitest refuses .only when CI is set', () => {
  beforeAll(() => {
    vi.stubEnv('CI', '1');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  interface Cfg {
    test?: { allowOnly?: boolean; projects?: Array<string | { test?: { name?: string; allowOnly?: boolean } }> };
  }

  it('every project of the root config, the web config and the e2e config', async () => {
    const root = ((await import('../../../vitest.config.ts')) as { default: Cfg }).default;
    const web = ((await import('../../web/vitest.config.ts')) as { default: Cfg }).default;
    const e2e = ((await import('../../../e2e/vitest.config.ts')) as { default: Cfg }).default;
    expect(root.test?.allowOnly).toBe(false);
    const inline = (root.test?.projects ?? []).filter((p): p is { test?: { name?: string; allowOnly?: boolean } } => typeof p !== 'string');
    expect(inline.length).toBeGreaterThan(0);
    for (const p of inline) expect(p.test?.allowOnly, p.test?.name).toBe(false);
    // file projects (apps/web/vitest.config.ts) set it themselves
    expect((root.test?.projects ?? []).filter((p) => typeof p === 'string')).toEqual(['apps/web/vitest.config.ts']);
    expect(web.test?.allowOnly).toBe(false);
    expect(e2e.test?.allowOnly).toBe(false);
  });
});
