/**
 * `npm run test:pg`: the server's tests with every test app on PostgreSQL (TEST_ENGINE=postgres,
 * server/test/global-setup.ts): on the server at TEST_DATABASE_URL, or on a throw-away cluster
 * when PostgreSQL's binaries are installed. Without either it says so and skips, unless
 * REQUIRE_POSTGRES=1 (CI), where that is a failure. Extra arguments go to vitest (file filters).
 */
import { spawnSync } from 'node:child_process'
import { postgresBinDir } from '../server/test/pg-cluster'

if (!process.env.TEST_DATABASE_URL && !postgresBinDir()) {
  const message = 'test:pg: no PostgreSQL (set TEST_DATABASE_URL, or install Debian\'s "postgresql" for a throw-away cluster)'
  if (process.env.REQUIRE_POSTGRES === '1') {
    console.error(`${message}; REQUIRE_POSTGRES=1 makes this a failure`)
    process.exit(1)
  }
  console.warn(`${message}: skipped`)
  process.exit(0)
}
const filters = process.argv.slice(2)
const result = spawnSync('npx', ['vitest', 'run', '--project', 'unit', ...(filters.length ? filters : ['server/'])], {
  stdio: 'inherit',
  env: { ...process.env, TEST_ENGINE: 'postgres' },
})
process.exit(result.status ?? 1)
