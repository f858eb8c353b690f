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

// libs/profiles is split by flow (intake/, apply/, read/, merge/, erasure/) over wire/,
// persistence/ and domain/; domain/ stands under all of them and imports none.
const noProfileFlows = {
  group: [
    '**/intake/*',
    '**/apply/*',
    '**/read/*',
    '**/merge/*',
    '**/erasure/*',
    '**/wire/*',
    '**/persistence/*',
    '**/ports/*',
  ],
  message: "profiles' domain imports no flow, wire/, persistence/ or ports/: they import it",
};
// Other libs, the apps and the tests reach profiles through @app/profiles (its ports/), a
// unit test also through the fixtures of @app/profiles/testing; an e2e suite that drives an
// internal imports it by relative path (docs/architecture.md, "Layout").
const noProfileInternals = {
  group: ['@app/profiles/*', '!@app/profiles/testing'],
  message: 'import @app/profiles (its ports/ only), or the fixtures of @app/profiles/testing',
};

// Composite keys (`<client>|...`) are built in each lib's keys.ts only: one place per lib
// says how a tenant's documents are addressed.
const keyTemplates = {
  selector:
    "TemplateLiteral:matches([expressions.0.name='clientId'], [expressions.0.property.name='clientId']) > TemplateElement[value.raw=/^\\|/]",
  message: "build composite keys in the lib's keys.ts",
};
// Tenant scope as a type: a repository keeps a tenant-scoped collection's model only wrapped
// in TenantScopedModel, whose queries take a TenantFilter (the client id or a TenantKey) or
// an explicit acrossTenants(...).
const rawModels = ['TSParameterProperty', 'PropertyDefinition > TSTypeAnnotation'].map((where) => ({
  selector: `${where} TSTypeReference[typeName.name='Model']`,
  message: 'keep a model only wrapped: new TenantScopedModel(model) (tenant-scope.ts)',
}));
// The collections that belong to no tenant: job runs, revoked tokens (by jti), OAuth
// clients (looked up by their id before the tenant is known), the receipt signing key;
// and the wrapper itself.
const globalCollections = [
  'libs/shared/src/database/tenant-scope.ts',
  'libs/shared/src/queue/job-run-log.repository.ts',
  'libs/auth/src/repositories/revoked-token.repository.ts',
  'libs/auth/src/repositories/oauth-client.repository.ts',
  // The deployment's generated keys: the consent-receipt signing key (docs/receipts.md) and
  // the double opt-in link key (docs/double-opt-in.md), each a repository extending it.
  'libs/shared/src/database/generated-key-store.ts',
];

// Domain code has typed seams (issue 42): its data has a declared shape, never a bag of
// fields, and no double cast steps around the compiler.
const untypedSeams = [
  {
    selector:
      "TSTypeReference[typeName.name='Record'][typeArguments.params.0.type='TSStringKeyword'][typeArguments.params.1.type='TSUnknownKeyword']",
    message: 'domain code types its data: no Record<string, unknown> (name the shape)',
  },
  {
    selector:
      "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
    message: 'domain code builds values the compiler accepts: no `as unknown as`',
  },
];

// The libs in their order (README, "Code layout"): a lib imports only libs of an earlier
// rank, so each can be lifted with what it stands on. Libs of one rank never import each
// other. The apps compose them all.
const LIB_RANKS = [
  ['shared'],
  ['auth'],
  ['config'],
  ['profiles'],
  ['consents', 'preferences'],
  ['bulk', 'events', 'decisions', 'preference-centre', 'reports'],
];
// The exceptions: the fold's spec checks one pass against write-by-write application with
// the real consent and preference rule modules, as the apps compose them (it drives
// Profiles' internals, which no app may import); the merge's spec checks the precedence
// tables (K and P rows, owned by those modules' mergePrecedence) the same way.
const libOrderExceptions = [
  'libs/profiles/src/apply/apply-profile-writes/pipeline/fold.spec.ts',
  'libs/profiles/src/domain/profile-absorb.spec.ts',
];
const libOrder = LIB_RANKS.flatMap((rank, r) =>
  rank.map((lib) => {
    const later = LIB_RANKS.slice(r)
      .flat()
      .filter((other) => other !== lib);
    return {
      files: [`libs/${lib}/**/*.ts`],
      ignores: libOrderExceptions,
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: later.flatMap((other) => [`@app/${other}`, `@app/${other}/*`]),
                message: `libs/${lib} comes before it in the lib order (shared < auth < config < profiles < consents, preferences < the feature libs): import only earlier libs`,
              },
              ...(lib === 'profiles' ? [] : [noProfileInternals]),
            ],
          },
        ],
      },
    };
  }),
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tools/**',
      '.data/**',
      'scripts/**',
      'eslint.config.mjs',
      // Generated by openapi-typescript (npm run client:types).
      'clients/typescript/src/schema.d.ts',
      // Written by each full test run (test/harness/suite-groups.js), not committed.
      'test/groups/**',
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
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/keys.ts', '**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', keyTemplates, ...rawModels] },
  },
  {
    files: ['libs/**/domain/**/*.ts', 'apps/**/domain/**/*.ts'],
    ignores: ['**/keys.ts', '**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', keyTemplates, ...rawModels, ...untypedSeams] },
  },
  {
    // Their specs too: a fixture builds typed data (partialData, historyEntry in
    // @app/profiles/testing), so a spec breaks when the shape it states drifts.
    files: ['libs/**/domain/**/*.spec.ts', 'apps/**/domain/**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', ...untypedSeams] },
  },
  {
    files: globalCollections,
    rules: { 'no-restricted-syntax': ['error', keyTemplates] },
  },
  {
    files: ['libs/profiles/src/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noModelInjection],
          patterns: [noForeignRepositories, noTransport, noProfileFlows],
        },
      ],
    },
  },
  ...libOrder,
  {
    files: ['apps/**/*.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noProfileInternals] }],
    },
  },
  {
    // Tests read JSON response bodies, which are untyped by nature.
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
