// Lint for the whole project: typescript-eslint's recommended type-aware rules, React hooks, Prettier owns format.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'coverage/**',
      'node_modules/**',
      'bench/reports/**',
      '.qupm-data/**',
      // functions/'s build output (tsc from functions/src and core/, both linted as sources).
      'functions/lib/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Anchored: the package, not a folder of ours named firebase (e2e/firebase/support).
              group: ['/firebase', '/firebase/*', '@firebase/*'],
              message: 'Only src/backend may use the Firebase SDK.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The adapters, their tests, the contract suite that runs them, the rules suite (the SDK's own test kit), and
    // functions/' emulator tests (people signed in with the SDK beside the functions).
    files: [
      'src/backend/**',
      '__tests__/backend/firebase/**',
      '__tests__/contract/**',
      '__tests__/rules/**',
      'functions/__tests__/emulator/**',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  prettier,
);
