import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
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
  // no import cycle between files, so none between features either (features meet through index.ts)
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'packages/*/src/test/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/server/tsconfig.json', 'packages/web/tsconfig.json', 'packages/contracts/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // layering: core is the kernel every feature builds on, and imports none of them (below)
  // repository content has one door (artifacts.content.ts): only the artifacts feature uses its store
  // features meet only through each other's index.ts; formats reach features only through the
  // artifacts feature's index.ts (the door and the Format contract), features reach formats only
  // through the registry the composition root injects (app.formatRegistry)
  {
    files: ['packages/server/src/features/*/**/*.ts'],
    ignores: ['packages/server/src/features/artifacts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/artifacts/artifacts.store*', '**/storage/binary-store*'],
              message: 'Use the artifacts feature’s door (repoContent) instead of its store.',
            },
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$)',
              message: 'Another feature is reached through its index.ts only.',
            },
            { regex: '(^|/)formats/', message: 'Features reach formats only through app.formatRegistry.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/features/artifacts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$)',
              message: 'Another feature is reached through its index.ts only.',
            },
            { regex: '(^|/)formats/', message: 'Features reach formats only through app.formatRegistry.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/formats/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)features/(?!artifacts/index\\.js$)',
              message: 'A format reaches features only through the artifacts door (features/artifacts/index.js).',
            },
            {
              group: ['**/artifacts/artifacts.store*', '**/storage/binary-store*'],
              message: 'Use the artifacts feature’s door (repoContent) instead of its store.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/formats/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)features/(?!artifacts/index\\.js$)',
              message: 'A format reaches features only through the artifacts door (features/artifacts/index.js).',
            },
            {
              group: ['**/artifacts/artifacts.store*', '**/storage/binary-store*'],
              message: 'Use the artifacts feature’s door (repoContent) instead of its store.',
            },
            { regex: '^\\.\\./(?!\\.\\.)', message: 'One format does not import another.' },
          ],
        },
      ],
    },
  },
  {
    files: [
      'packages/server/src/core/**/*.ts',
      'packages/server/src/db/**/*.ts',
      'packages/server/src/storage/**/*.ts',
    ],
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
  // web features never import the shell: what they share lives in lib/ or components/; another
  // feature is reached through its index.ts only (the shell itself imports pages lazily, by file)
  {
    files: ['packages/web/src/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/app'],
              message: 'Features do not import the shell (app/); move what they share to lib/.',
            },
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index$)',
              message: 'Another feature is reached through its index.ts only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web/src/features/*/*/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/app'],
              message: 'Features do not import the shell (app/); move what they share to lib/.',
            },
            {
              regex: '^\\.\\./\\.\\./(?!\\.\\.)[^/]+/(?!index$)',
              message: 'Another feature is reached through its index.ts only.',
            },
          ],
        },
      ],
    },
  },
  // the shared layers below the features import none of them, nor the shell
  {
    files: ['packages/web/src/{api,lib,components}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/app/**', '**/app'],
              message: 'api/, lib/ and components/ import no feature and not the shell.',
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
