// The rules of the code base that a linter can hold (docs/ARCHITECTURE.md "Layers"):
// typescript-eslint's recommended set, React's hook rules, and the layering as import boundaries.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

/** `shared` is used by both sides and so imports neither. */
const sharedImportsNeitherSide = {
  group: ['**/server/**', '**/client/**', '../server/*', '../client/*'],
  message: 'shared/ is imported by the server and the client and must import neither (docs/ARCHITECTURE.md "Layers").',
}

/** The browser bundle never pulls server code. */
const clientNeverImportsServer = {
  group: ['**/server/**', '../server/*'],
  message: 'client/ never imports server/: share rules through shared/ (docs/ARCHITECTURE.md "Layers").',
}

/** A feature asks another feature's service; only the feature itself touches its repository. */
const noOtherFeaturesRepository = {
  group: ['../*/*.repository', '../*/*.repository.ts', '../../features/*/*.repository', '../../features/*/*.repository.ts'],
  message: 'Use the other feature\'s service, never its repository (docs/ARCHITECTURE.md "Layers").',
}

/** Components get data through hooks and mutation modules, never by calling the API themselves. */
const componentsNeverCallApi = {
  group: ['**/lib/api', '**/lib/api.ts'],
  importNames: ['api'],
  message: 'Components call a hook or a mutation module, not api() (docs/ARCHITECTURE.md "Client").',
}

/** Route definitions load with the first route, which carries no zod (docs/decisions/0072). */
const routesLoadNoZod = {
  group: ['zod', '**/shared/contract/*', '!**/shared/contract/values', '!**/shared/contract/sync-basics'],
  allowTypeImports: true,
  message:
    'Route files load with the first route: check search parameters with client/lib/search-params, take plain values from shared/contract/values (docs/decisions/0072).',
}

/** A route states its rules where it is declared (server/http/route.ts, docs/ARCHITECTURE.md "Modules"). */
const routesCarryTheirRules = {
  name: '@hono/zod-openapi',
  importNames: ['createRoute'],
  message: "Declare a route with route() from server/http/route.ts (or a builder over it): it carries the route's rules.",
}

const restricted = (...patterns) => ['error', { patterns }]

/**
 * Tests hold on a slow, busy machine (docs/ARCHITECTURE.md "Tests"): no wall clock in a test (how
 * fast something is belongs in the benchmarks), a step waits for a state rather than for a fixed
 * time, and a wait has a guard long enough for a loaded machine.
 */
const noWallClock = [
  {
    selector: "MemberExpression[object.name='performance'][property.name='now']",
    message: 'No wall clock in tests: assert what is correct (count statements, not milliseconds) and time it in bench/ (docs/ARCHITECTURE.md "Tests").',
  },
  {
    selector: "MemberExpression[object.name='process'][property.name='hrtime']",
    message: 'No wall clock in tests: assert what is correct (count statements, not milliseconds) and time it in bench/ (docs/ARCHITECTURE.md "Tests").',
  },
]
const waitForAState = {
  selector: "CallExpression[callee.object.name='vi'][callee.property.name='waitFor'][arguments.length<2]",
  message:
    'vi.waitFor gives up after 1 s, which a busy machine overruns: use expect.poll (30 s, vitest.config.ts) or pass a timeout (docs/ARCHITECTURE.md "Tests").',
}
const noFixedWaitInJourneys = {
  selector: "CallExpression[callee.property.name='waitForTimeout']",
  message: 'A journey waits for a state (a locator, a response, expect.poll), never for a fixed time (docs/ARCHITECTURE.md "Tests").',
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'data/**',
      'coverage/**',
      'client/routeTree.gen.ts',
      'drizzle/**/*.sql',
      'client/locales/**',
      'server/i18n/locales/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // The type checker (npm run typecheck) already reports these, with better messages.
      'no-undef': 'off',
      'no-redeclare': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Test doubles and zod's open records use `any`-free unknowns; explicit any is allowed where a library types it so.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A late-bound reference (`let appRef; … deliverTo: () => appRef.fetch; appRef = app`) is read before it is assigned.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': restricted(clientNeverImportsServer),
    },
  },
  {
    // Tests of the sync layer against the real server start it in-process; they are never bundled.
    files: ['client/**/*.against-server.test.ts', 'client/**/*.against-server.slow.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['client/**/*.tsx'],
    ignores: ['client/**/*.test.tsx'],
    rules: { 'no-restricted-imports': restricted(clientNeverImportsServer, componentsNeverCallApi) },
  },
  {
    files: ['client/routes/**/*.tsx'],
    rules: { 'no-restricted-imports': restricted(clientNeverImportsServer, componentsNeverCallApi, routesLoadNoZod) },
  },
  {
    // Only the sync layer reads or writes the outbox table; screens ask client/sync.
    files: ['client/**/*.{ts,tsx}'],
    // Tests may look into the queue to prove what was stored.
    ignores: ['client/sync/**', 'client/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='outbox'][object.type!='ThisExpression']",
          message: 'Only client/sync touches the outbox table: use a function of client/sync (docs/OFFLINE.md).',
        },
      ],
    },
  },
  { files: ['shared/**/*.ts'], rules: { 'no-restricted-imports': restricted(sharedImportsNeitherSide) } },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/http/route.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [routesCarryTheirRules] }] },
  },
  {
    files: ['{server,shared,client,scripts}/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...noWallClock, waitForAState] },
  },
  {
    files: ['e2e/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noWallClock, waitForAState, noFixedWaitInJourneys] },
  },
  {
    files: ['server/features/**/*.ts'],
    // The company scope reads companies and their members directly: every feature calls it, so going
    // through the companies service there would make the two depend on each other.
    ignores: ['server/features/**/*.test.ts', 'server/features/companies/company-scope.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noOtherFeaturesRepository], paths: [routesCarryTheirRules] }],
      // Raw SQL runs on both engines through server/db/statement.ts (docs/decisions/0058).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='connectionOf']",
          message: 'A feature does not reach for the SQLite connection: write raw SQL as a statement() (server/db/statement.ts), which runs on PostgreSQL too.',
        },
      ],
    },
  },
  {
    // Every query is awaited on both engines (docs/decisions/0057): a promise left floating is a
    // write that may run after its transaction ended, or an error nobody sees. Type-aware, so
    // only for the server side and what drives it.
    files: ['server/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'e2e/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
)
