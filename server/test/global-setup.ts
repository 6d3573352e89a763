/**
 * vitest globalSetup of the unit project: builds the test database template (migrations + demo
 * seed) once per run and gives the workers its file (server/test/template-db.ts).
 *
 * With TEST_ENGINE=postgres (`npm run test:pg`) the apps run on PostgreSQL instead: the server
 * at TEST_DATABASE_URL (a database the tests may create databases from, e.g. its `postgres`), or
 * without one a throw-away cluster started here (server/test/pg-cluster.ts); the template is a
 * database there (server/test/pg-template.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildTemplateImage, TEST_SECRET_KEY } from './template-build'
import { startPgCluster } from './pg-cluster'
import { buildPgTemplate, dropPgDatabase } from './pg-template'

export default async function setup(project: TestProject) {
  if (process.env.TEST_ENGINE === 'postgres') return await setupPostgres(project)
  const dir = mkdtempSync(join(tmpdir(), 'bk-template-'))
  const path = join(dir, 'template.db')
  writeFileSync(path, await buildTemplateImage(TEST_SECRET_KEY))
  project.provide('templateDbPath', path)
  return () => rmSync(dir, { recursive: true, force: true })
}

async function setupPostgres(project: TestProject) {
  const cluster = process.env.TEST_DATABASE_URL ? undefined : await startPgCluster()
  const adminUrl = process.env.TEST_DATABASE_URL ?? cluster!.url
  const template = await buildPgTemplate(adminUrl, TEST_SECRET_KEY)
  project.provide('pg', { adminUrl, template })
  return async () => {
    if (cluster) await cluster.stop()
    else await dropPgDatabase(adminUrl, template)
  }
}
