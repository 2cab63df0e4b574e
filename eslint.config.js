import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/*.config.*', 'e2e/artifacts/**', '.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        // Two programs for the whole repository (tsconfig.check.json: every Node workspace; the web
        // app's own): the project service built one per workspace, re-checking shared sources.
        project: ['./tsconfig.check.json', './apps/web/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // A committed `.only` silently skips every other test of its file: never allowed (vitest
    // also refuses it when CI is set, allowOnly in both vitest configs).
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name=/^(it|test|describe|suite|bench)$/][property.name='only']",
          message: '`.only` skips the other tests: remove it before committing.',
        },
        {
          selector:
            "MemberExpression[object.type='MemberExpression'][object.object.name=/^(it|test|describe|suite)$/][property.name='only']",
          message: '`.only` skips the other tests: remove it before committing.',
        },
        {
          // unit test files share one module graph per worker (isolate: false, vitest.config.ts):
          // a module mock would replace the module for the files that run after it, or come too late
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|unmock|resetModules)$/]",
          message: 'Test files share one module graph per worker: spy on an object (vi.spyOn) instead of mocking a module.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.tsx', 'apps/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
