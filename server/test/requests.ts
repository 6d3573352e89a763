import { expect } from 'vitest'
import type { TestApp } from './harness'

/**
 * What the feature tests share when they call the API: the language headers, a field's
 * validation message in a 400's `issues`, and every change of one entity from the sync feed.
 */

export const DA = { 'Accept-Language': 'da' }
export const EN = { 'Accept-Language': 'en' }

/** The message of the validation issue at `path` (e.g. 'title'), if the answer has one. */
export const issue = (res: { json: any }, path: string): string | undefined => res.json?.issues?.find((i: { path: string }) => i.path === path)?.message

export interface PulledChange {
  entity: string
  id: string
  op: string
  data?: Record<string, any>
}

/** Follows GET /sync page by page from `from` (the start if none): the changes of `entity`, and the last cursor. */
export async function pullChanges(t: TestApp, token: string, entity: string, from?: string): Promise<{ changes: PulledChange[]; cursor: string }> {
  const changes: PulledChange[] = []
  let cursor: string | undefined = from
  for (;;) {
    const res = await t.call('GET', `/sync?limit=500${cursor ? `&cursor=${cursor}` : ''}`, { token })
    expect(res.status).toBe(200)
    changes.push(...res.json.changes)
    cursor = res.json.cursor
    if (!res.json.hasMore) return { changes: changes.filter((c) => c.entity === entity), cursor: cursor! }
  }
}
