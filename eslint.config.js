import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'packages/web/test-results/**', 'bench/**/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // layering: core is the kernel every feature builds on, and imports none of them (below)
  // repository content has one door (artifacts.content.ts): only the artifacts feature uses its store
  {
    files: ['packages/server/src/**/*.ts'],
    // the composition root builds the store and hands it to the artifacts feature
    ignores: [
      'packages/server/src/features/artifacts/**',
      'packages/server/src/app.ts',
      'packages/server/src/storage/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/artifacts/artifacts.store*', '**/storage/binary-store*'],
              message: 'Use the artifacts feature’s door (repoContent) instead of its store.',
            },
            // a feature's own store is './x.store.js'; another feature's is reached through its service
            { group: ['../*/*.store*', '../*/*.store.js'], message: 'Use the other feature’s service, not its store.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/features/**', '**/formats/**'], message: 'core/ imports no feature or format.' },
            {
              group: ['**/artifacts/artifacts.store*'],
              message: 'Use the artifacts feature’s door (repoContent) instead of its store.',
            },
          ],
        },
      ],
    },
  },
  // web features never import the shell: what they share lives in lib/ or components/
  {
    files: ['packages/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/app'],
              message: 'Features do not import the shell (app/); move what they share to lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
