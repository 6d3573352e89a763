/**
 * vitest globalSetup of the unit project: builds the test database template (migrations + demo
 * seed) once per run and gives the workers its file (server/test/template-db.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildTemplateImage, TEST_SECRET_KEY } from './template-build'

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'bk-template-'))
  const path = join(dir, 'template.db')
  writeFileSync(path, await buildTemplateImage(TEST_SECRET_KEY))
  project.provide('templateDbPath', path)
  return () => rmSync(dir, { recursive: true, force: true })
}
