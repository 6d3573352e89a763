import 'fake-indexeddb/auto'
import { afterAll } from 'vitest'

// On PostgreSQL (`npm run test:pg`) each test app has its own database: dropped when its file ends.
// A file with dozens of apps drops dozens of databases, each a checkpoint: room for a loaded machine.
if (process.env.TEST_ENGINE === 'postgres') {
  const { dropPgCopies } = await import('./server/test/pg-template')
  afterAll(dropPgCopies, 300_000)
}
