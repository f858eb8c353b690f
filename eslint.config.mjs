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
// The engine is reached through repositories only: a model or connection is injected
// nowhere else, so every query sits where its tenant scope and its cost are reviewed.
const noModelInjection = {
  name: '@nestjs/mongoose',
  importNames: ['InjectModel', 'InjectConnection'],
  message: 'inject models and connections in a *.repository.ts file only',
};
// Domain code knows nothing of the transport: wire shapes reach it through ports.
const noTransport = {
  group: ['**/http/*', '**/dto/*', '**/mapping/*', '@nestjs/swagger', 'fastify'],
  message: 'domain code imports nothing from http/, dto/ or mapping/ (nor the HTTP framework)',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tools/**',
      '.data/**',
      'scripts/**',
      'eslint.config.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noForeignRepositories] }] },
  },
  {
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noModelInjection], patterns: [noForeignRepositories] },
      ],
    },
  },
  {
    files: ['libs/**/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noModelInjection], patterns: [noForeignRepositories, noTransport] },
      ],
    },
  },
  {
    // Composite keys (`<client>|...`) are built in each lib's keys.ts only: one place per
    // lib says how a tenant's documents are addressed.
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/keys.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "TemplateLiteral:matches([expressions.0.name='clientId'], [expressions.0.property.name='clientId']) > TemplateElement[value.raw=/^\\|/]",
          message: "build composite keys in the lib's keys.ts",
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
