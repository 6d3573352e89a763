// The rules of the code base that a linter can hold (docs/ARCHITECTURE.md "Layers"):
// typescript-eslint's recommended set, React's hook rules, and the layering as import boundaries.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { readdirSync } from 'node:fs'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'

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

/**
 * The features (server/features/<name>/), each a module with one public entry, its index.ts
 * (docs/ARCHITECTURE.md "Layers", docs/decisions/0077).
 */
const features = readdirSync(new URL('./server/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('__'))
  .map((entry) => entry.name)

/** Another feature is reached through its entry only, never one of its inner files. */
const onlyThroughTheEntry = features.map((feature) => ({
  target: `./server/features/!(${feature})/**`,
  from: `./server/features/${feature}`,
  except: ['./index.ts'],
  message: `Import the feature through its entry, '../${feature}', never its inner files: let its index.ts export what other features use (docs/ARCHITECTURE.md "Layers").`,
}))

/**
 * Who may import each table file of server/db/schema: the module whose entry lists its tables
 * (`tables: [...]` in server/features/<name>/index.ts). Another feature asks the owner's service.
 */
const tableOwners = {
  agreements: ['agreements', 'billing'], // agreements and their parts; charges, their events and the provider outbox belong to billing
  assemblies: ['assemblies'],
  bookkeeping: ['bookkeeping'],
  companies: ['companies'],
  documents: ['documents'],
  erasures: ['personal-data'],
  forum: ['forum'],
  households: ['households'], // households, their residents over time and their moves (docs/decisions/0090)
  invoices: ['billing'],
  invitations: ['invitations'], // invitations at scale, their reminders and bounced addresses (docs/decisions/0091)
  knowledge: ['articles', 'specialists'], // articles and their attachments; specialists
  lending: ['lending'],
  market: ['market'],
  messages: ['messages'],
  notifications: ['notifications'],
  oidc: ['auth'],
  push: ['push'], // push subscriptions, preferences, outbox and the VAPID keys (docs/decisions/0088)
  payments: ['payment-providers', 'webhooks'], // payment providers; provider webhooks and their events
  platform: ['logs'], // system logs; idempotency keys and the mail outbox belong to server/http and server/integrations
  statements: ['account-statement'],
  statistics: ['statistics'],
  storage: ['storage'], // associations' own storage quotas (docs/decisions/0082)
  sync: ['sync'],
  users: ['users'],
}

// A new table file gets its owner here, or the rule would not hold it.
for (const file of readdirSync(new URL('./server/db/schema/', import.meta.url))) {
  if (file.endsWith('.ts') && !file.endsWith('.test.ts') && !(file.replace(/\.ts$/, '') in tableOwners)) {
    throw new Error(`eslint.config.js: server/db/schema/${file} has no owner in tableOwners`)
  }
}

/**
 * Features that still read another module's tables, mostly joins in a list query, each with its
 * reason. Each entry is a read to route through the owner's entry when its code is next changed;
 * a new entry needs a reason of the same weight.
 */
const tableReadersAllowed = [
  // Erasing a person's data (GDPR) removes or anonymises their rows in every module in one transaction.
  { feature: 'personal-data', schema: Object.keys(tableOwners), why: 'erasure touches every module' },
  // auth keeps the sign-in methods, sessions, password resets and e-mail confirmations listed by users.
  { feature: 'auth', schema: ['users'], why: 'sign-in rows' },
  // Demo and bench data: writes the users, addresses and providers its agreements need.
  { feature: 'agreements', schema: ['companies', 'payments', 'users'], why: 'bulk test data; member names and staff in its queries' },
  // Who lives where (residency.service.ts): a household's current residents are residents of the association, in the same statement as the agreements' members (docs/decisions/0090).
  { feature: 'agreements', schema: ['households'], why: 'current residents in the residency queries' },
  // The statement joins the member, their agreements, charges, invoices and the company's name.
  { feature: 'account-statement', schema: ['agreements', 'companies', 'invoices', 'users'], why: 'statement query' },
  // A company's list of associations with heating-water periods; their names in assembly lists.
  { feature: 'assemblies', schema: ['companies'], why: 'company names and periods' },
  // A household is an address (docs/decisions/0090): its list and search join the addresses; residents' names and e-mail addresses.
  { feature: 'households', schema: ['companies', 'users'], why: 'household list join; residents' },
  // Members' names, e-mail addresses and phones in the member list.
  { feature: 'companies', schema: ['users'], why: 'member list join' },
  // The uploader's name in document lists.
  { feature: 'documents', schema: ['users'], why: 'uploader join' },
  // Followers' and members' addresses and languages for forum notices.
  { feature: 'forum', schema: ['companies', 'users'], why: 'recipients of notices' },
  // Staff of an association to notify; deposits' charges executed for a loan.
  { feature: 'lending', schema: ['agreements', 'companies'], why: 'staff and deposit charges' },
  // The board and addresses of a message, the company's name, people, and the mail outbox's state of a message.
  { feature: 'messages', schema: ['companies', 'platform', 'users'], why: 'recipients and delivery state' },
  // The users a staff member may see, and whether a user has an agreement with a company (companies' scope).
  { feature: 'users', schema: ['agreements', 'companies'], why: 'visibility of users' },
]

/** A feature imports only the tables of its own module. */
const onlyOwnTables = Object.entries(tableOwners).map(([file, owners]) => {
  const readers = tableReadersAllowed.filter((entry) => entry.schema.includes(file)).map((entry) => entry.feature)
  const allowed = [...new Set([...owners, ...readers])]
  return {
    target: `./server/features/!(${allowed.join('|')})/**`,
    from: `./server/db/schema/${file}.ts`,
    message: `These tables belong to ${owners.join(', ')}: ask its service through its entry (docs/ARCHITECTURE.md "Layers").`,
  }
})

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
    // Modules hold (docs/ARCHITECTURE.md "Layers", docs/decisions/0077): a feature reaches another
    // only through its entry, imports only its own module's tables, and no import cycle runs
    // through the server. Tests and their helpers may reach into a feature's inner files.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts', 'server/**/test-helpers.ts', 'server/test/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      // `import { type A } from './a'` still loads ./a at run time (verbatimModuleSyntax): write `import type`.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...onlyThroughTheEntry, ...onlyOwnTables] }],
      // Type-only imports are erased and so make no cycle at run time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
