import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** One layering rule: these files may not import what the patterns name. */
function restrict(files, patterns, extra = {}) {
  return { files, ...extra, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

const NO_STORE = {
  group: ['**/artifacts/artifacts.store*', '**/storage/binary-store*'],
  message: 'Use the artifacts feature’s door (repoContent) instead of its store.',
};
const OTHER_FEATURE = {
  regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$)',
  message: 'Another feature is reached through its index.ts only.',
};
// the contract the formats implement (formats/format.ts) types the registry the features are handed
const NO_FORMATS = {
  regex: '(^|/)formats/(?!format\\.js$)',
  message: 'Features reach formats only through app.formatRegistry (typed by formats/format.ts).',
};
const DOOR_ONLY = {
  regex: '(^|/)features/(?!artifacts/index\\.js$)',
  message: 'A format reaches features only through the artifacts door (features/artifacts/index.js).',
};
// a format checks access and reads settings through the door too, not with the core's own calls
const DOOR_CHECKS = {
  group: ['**/core/permissions*', '**/core/settings.store*'],
  message: 'A format checks access (content.mayRead) and reads settings (content.signIn) through the door.',
};
/** What a format may not read off the server: data, binaries and other features' services come through the door. */
const SERVER_PARTS = '[property.name=/^(db|binaries|signing|license|retention|doorPorts)$/]';
const FORMAT_SIDE_DOORS = [
  // app.db, server.signing …
  `MemberExpression[object.type='Identifier'][object.name=/^(app|server)$/]${SERVER_PARTS}`,
  // this.app.db, request.server.signing …
  `MemberExpression[object.type='MemberExpression'][object.property.name=/^(app|server)$/]${SERVER_PARTS}`,
].map((selector) => ({
  selector,
  message:
    'A format reaches data, binaries and other features through the door (repoContent / systemContent): content.signer(repo), content.mayRead(…), content.signIn.',
}));
const NO_SHELL = {
  group: ['**/app/**', '**/app'],
  message: 'Features do not import the shell (app/); move what they share to lib/.',
};

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
  restrict(['packages/server/src/features/*/**/*.ts'], [NO_STORE, OTHER_FEATURE, NO_FORMATS], {
    ignores: [
      'packages/server/src/features/artifacts/**',
      'packages/server/src/features/backup/**',
      'packages/server/src/features/retention/**',
    ],
  }),
  // a backup copies the whole store below every repository, as the door itself does, and the
  // archive keeps its own (cold) store and copies contents between it and the hot one: the other
  // features that hold a binary store (never the artifacts feature's tables; files leave and come
  // back through the door)
  restrict(
    ['packages/server/src/features/backup/**/*.ts', 'packages/server/src/features/retention/**/*.ts'],
    [{ group: ['**/artifacts/artifacts.store*'], message: NO_STORE.message }, OTHER_FEATURE, NO_FORMATS],
  ),
  restrict(['packages/server/src/features/artifacts/**/*.ts'], [OTHER_FEATURE, NO_FORMATS]),
  restrict(['packages/server/src/formats/*.ts'], [DOOR_ONLY, NO_STORE, DOOR_CHECKS]),
  restrict(
    ['packages/server/src/formats/*/**/*.ts'],
    // the contract (format.ts) and what every format's routes declare of their requests
    // (route-schemas.ts) are shared, not a format
    [
      DOOR_ONLY,
      NO_STORE,
      DOOR_CHECKS,
      { regex: '^\\.\\./(?!\\.\\.|route-schemas\\.js$|format\\.js$)', message: 'One format does not import another.' },
    ],
  ),
  {
    files: ['packages/server/src/formats/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...FORMAT_SIDE_DOORS] },
  },
  restrict(
    ['packages/server/src/core/**/*.ts', 'packages/server/src/db/**/*.ts', 'packages/server/src/storage/**/*.ts'],
    [
      { group: ['**/features/**', '**/formats/**'], message: 'core/ imports no feature or format.' },
      { group: ['**/artifacts/artifacts.store*'], message: NO_STORE.message },
    ],
  ),
  // web features never import the shell: what they share lives in lib/ or components/; another
  // feature is reached through its index.ts only (the shell itself imports pages lazily, by file)
  restrict(
    ['packages/web/src/features/*/*.{ts,tsx}'],
    [NO_SHELL, { regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index$)', message: OTHER_FEATURE.message }],
  ),
  restrict(
    ['packages/web/src/features/*/*/**/*.{ts,tsx}'],
    [NO_SHELL, { regex: '^\\.\\./\\.\\./(?!\\.\\.)[^/]+/(?!index$)', message: OTHER_FEATURE.message }],
  ),
  // the shared layers below the features import none of them, nor the shell
  restrict(
    ['packages/web/src/{api,lib,components}/**/*.{ts,tsx}'],
    [
      {
        group: ['**/features/**', '**/app/**', '**/app'],
        message: 'api/, lib/ and components/ import no feature and not the shell.',
      },
    ],
  ),
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
