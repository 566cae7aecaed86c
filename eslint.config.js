import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** `/api` and what is below it: a route's address or the API's prefix (docs/api.md "The lint rule"). */
const API_ROUTE = /^\/api(\/|$)/;
/**
 * Refuses a route address written as a literal outside the contract: calls and registrations take it from a
 * declaration (packages/contract/src/api/routes/, a resource definition's `base`) or a constant the contract exports.
 */
const noApiLiteral = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const refuse = (node) =>
      context.report({
        node,
        message:
          'An /api/ route belongs in the contract (packages/contract): declare it there and use the declaration (docs/api.md "The lint rule").',
      });
    return {
      Literal(node) {
        if (typeof node.value === 'string' && API_ROUTE.test(node.value)) refuse(node);
      },
      TemplateLiteral(node) {
        if (API_ROUTE.test(node.quasis[0].value.cooked ?? '')) refuse(node);
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/.bench-build/**',
      '**/node_modules/**',
      '**/data/**',
      'apps/server/src/db/migrations/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // No function over 150 lines in the server (docs/server.md "Module boundaries"), with no file excepted.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Every user-visible text lives in the message catalogue (packages/contract/src/resource/messages.ts), a resource
    // definition, a module's messages.ts, or the web app's locale files — so each has its English twin.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'apps/server/test/**',
      'apps/server/bench/**',
      '**/messages.ts',
      'packages/contract/src/resources/**',
      'apps/web/src/i18n/**',
      'apps/server/src/db/seed-data/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/[\\u3400-\\u9fff]/]',
          message: 'Chinese text belongs in a message catalogue with its English twin (docs/resources.md "Messages").',
        },
        {
          selector: 'TemplateElement[value.raw=/[\\u3400-\\u9fff]/]',
          message: 'Chinese text belongs in a message catalogue with its English twin (docs/resources.md "Messages").',
        },
      ],
    },
  },
  {
    // No `/api/…` route literal outside the contract (docs/api.md "The lint rule"): no exception but the contract,
    // the tests and the benches.
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    ignores: [
      'packages/contract/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'apps/server/test/**',
      'apps/server/bench/**',
      'apps/web/test/**',
      // The dev server's proxy of the API (vite loads its config without the workspace's TypeScript packages).
      'apps/web/vite.config.ts',
    ],
    plugins: { atrium: { rules: { 'no-api-literal': noApiLiteral } } },
    rules: { 'atrium/no-api-literal': 'error' },
  },
  {
    // Every spec takes `test` from its fixtures: a failure then prints what the browser did (e2e/tests/fixtures.ts).
    files: ['e2e/tests/**/*.ts'],
    ignores: ['e2e/tests/fixtures.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: "Take test and expect from './fixtures.ts' (a failure then prints what the browser did).",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
