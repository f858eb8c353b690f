// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// A lib reaches another lib's data through its exported ports, commands and queries, never
// through its repositories (each lib owns its collections).
const noForeignRepositories = {
  group: ['@app/*'],
  importNamePattern: 'Repository$',
  message: "another lib's repository: use the port, command or query it exports",
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', '.data/**', 'scripts/**', 'eslint.config.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noForeignRepositories] }] },
  },
  {
    // Domain code knows nothing of the transport: wire shapes reach it through ports.
    files: ['libs/**/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noForeignRepositories,
            {
              group: ['**/http/*', '**/dto/*', '**/mapping/*', '@nestjs/swagger', 'fastify'],
              message: 'domain code imports nothing from http/, dto/ or mapping/ (nor the HTTP framework)',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON response bodies, which are untyped by nature.
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
