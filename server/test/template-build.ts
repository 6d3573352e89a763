/** Builds the test database template (server/test/template-db.ts); no vitest import, so globalSetup can use it. */
import { openDatabase } from '../db/client'
import { seedDemoData } from '../db/seed'
import { TestClock } from '../lib/clock'
import { createSecretBox } from '../lib/secret-box'

/** The time every test app starts at (and the demo data was seeded at). */
export const TEST_START = '2026-11-23T09:00:00.000Z'
export const TEST_SECRET_KEY = 'test-secret-key'

/** Migrates and seeds a fresh in-memory database and returns its serialized image. */
export async function buildTemplateImage(secretKey: string): Promise<Buffer> {
  const database = openDatabase(':memory:')
  try {
    await seedDemoData(database.db, new TestClock(TEST_START), createSecretBox(secretKey), { demoAgreements: false })
    return database.sqlite.serialize()
  } finally {
    database.close()
  }
}
