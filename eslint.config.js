// One lint configuration for the whole repository. Besides the usual rules it enforces the
// architecture's boundaries (see docs/architecture.md): shared/ is platform-free, the renderer never
// reaches Node or Electron, and the Electron side never imports the renderer.
import { builtinModules } from 'node:module';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const forbid = (paths, patterns, message) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: paths.map((name) => ({ name, message })),
      patterns: patterns.map((group) => ({ group: [group], message })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'fixtures/**', 'test-results/**', 'playwright-report/**', 'docs/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: forbid(
      [...nodeBuiltins, 'electron', 'react', 'react-dom'],
      ['**/electron/**', '**/renderer/**', 'node:*'],
      'shared/ is pure TypeScript: no Node, DOM, Electron or UI imports (it runs in the CLI, the worker and the UI).',
    ),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/**/*.test.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid(
        [...nodeBuiltins, 'electron'],
        ['**/electron/**', 'node:*'],
        'The renderer cannot reach Node or Electron; use the host bridge (renderer/src/host).',
      ),
    },
  },
  {
    // Panes compose notes, the store and the workspace, not the other way round: what both
    // need lives in the lower folder (annotate/note-surface.ts for what notes need of a drawing).
    files: ['renderer/src/{annotate,workspace,store,import,host,search}/**/*.{ts,tsx}'],
    ignores: ['renderer/**/*.test.{ts,tsx}'],
    rules: forbid(
      [...nodeBuiltins, 'electron'],
      ['**/electron/**', 'node:*', '**/comparison/**', '**/export/**'],
      'Notes, the store, the workspace, import, host and search sit below the panes and exports: move what they share down.',
    ),
  },
  {
    files: ['electron/**/*.ts'],
    rules: forbid([], ['**/renderer/**', 'react', 'react-dom'], 'The Electron side never imports the renderer.'),
  },
  {
    files: ['node/**/*.ts'],
    rules: forbid(
      ['electron'],
      ['**/renderer/**', '**/electron/**', 'react', 'react-dom'],
      'node/ is plain Node (the CLI, the loopback server, host code): no Electron, no renderer.',
    ),
  },
);
