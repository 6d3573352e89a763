import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { availableParallelism } from 'node:os'

/** Tests that spawn and kill processes (chaos tests): `npm run test:slow`, part of `npm test` and CI. */
const slowTests = ['{server,shared,client,scripts}/**/*.{kill,slow}.test.{ts,tsx}']

/**
 * How long `expect.poll` waits for a state before it fails (vitest's default is 1 s): a guard
 * against a state that never comes, not a speed limit, so it holds on a slow, busy machine; under
 * the test timeout, so a poll that gives up says what it waited for. `vi.waitFor` has no project
 * default (1 s): a test that uses it passes its own timeout, which ESLint requires.
 * docs/ARCHITECTURE.md "Tests".
 */
const expectSettings = { poll: { timeout: 30_000, interval: 50 } }

/** What the two unit projects share (`npm run test:unit` runs both). */
const unitSettings: TestProjectInlineConfiguration['test'] = {
  // Tests that spawn processes, kill them or wait on real time run in `slow` (npm run test:slow).
  exclude: [...slowTests, '**/node_modules/**'],
  environment: 'node',
  setupFiles: ['./vitest.setup.ts'],
  // Migrates and seeds the test database template once per run (server/test/template-db.ts).
  globalSetup: ['./server/test/global-setup.ts'],
  // Explicit, and a guard against hangs rather than a speed limit: a test app starts in a few ms
  // now, but property tests and authorization matrices take 1-4 s idle, and the first test of a
  // file also loads the app. On a 2-core machine running far more than two suites (load 20), 30 s
  // still timed out a few of them; 5 s (the default) failed tests that pass alone.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  expect: expectSettings,
  // vitest's default is one worker less than the cores: one worker on a 2-core machine, which left
  // a core idle while a file ran. The tests are CPU-bound and independent.
  maxWorkers: Math.max(2, availableParallelism() - 1),
}

export default defineConfig({
  plugins: [babel({ include: /client[\\/].*\.[jt]sx?(\?.*)?$/, plugins: ['@lingui/babel-plugin-lingui-macro'] }), lingui()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          ...unitSettings,
          name: 'unit',
          include: ['{server,shared,scripts}/**/*.test.{ts,tsx}'],
          // Server, shared and script tests share each worker's loaded modules: none of them mocks a
          // module or stubs a global, and every test builds its own app on its own database copy.
          // Loading the app once per worker instead of once per file halves the run.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          ...unitSettings,
          // Client tests mock modules, stub globals and keep IndexedDB state: each file runs isolated.
          name: 'unit-client',
          include: ['client/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: slowTests,
          environment: 'node',
          setupFiles: ['./vitest.setup.ts'],
          // A kill test runs child processes over 3,000 agreements for about a minute idle.
          testTimeout: 300_000,
          hookTimeout: 60_000,
          expect: expectSettings,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          // A guard against a hang, not a speed limit: a journey takes up to a minute on a busy 2-core
          // machine (load 8: 8-37 s a test), so 3× that. A longer journey is split into tests that
          // each start from their own state, or says why it needs more (docs/ARCHITECTURE.md "Tests").
          testTimeout: 180_000,
          hookTimeout: 120_000,
          expect: expectSettings,
          // Each journey file runs its own server on its own port, data folder and browser, so two
          // files run at once: a journey waits on the network, the sync and timers much of its time,
          // which on a 2-core machine left a core idle (docs/ARCHITECTURE.md "Tests").
          maxWorkers: 2,
        },
      },
    ],
  },
})
