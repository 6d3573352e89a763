/**
 * Every kind of change passed to `engine.mutate` anywhere in the client is
 * registered by the one start-up import (all-mutation-kinds.ts) with a label, so the sync panel
 * never says "Change"; money actions have their own names (docs/OFFLINE.md "Outbox").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { setupI18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import './all-mutation-kinds'
import { AGREEMENT_TERMINATE } from '../features/agreements/agreement-mutations'
import { ONE_TIME_CHARGE, REFUND } from '../features/billing/billing-mutations'
import { mutationKind } from './mutation-kinds'

const clientDir = join(import.meta.dirname, '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'locales' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

/** Every `kind:` of an `engine.mutate({...})` call in the client, resolved to its string value. */
function kindsUsedByMutate(): Array<{ file: string; kind: string }> {
  const found: Array<{ file: string; kind: string }> = []
  for (const file of sourceFiles(clientDir)) {
    const text = readFileSync(file, 'utf8')
    if (!text.includes('engine.mutate(')) continue
    const constants = new Map([...text.matchAll(/export const (\w+) = '([^']+)'/g)].map((m) => [m[1]!, m[2]!]))
    for (const call of text.split('engine.mutate(').slice(1)) {
      const kind = /kind:\s*(?:'([^']+)'|(\w+))/.exec(call)
      if (!kind) throw new Error(`engine.mutate without a kind in ${relative(clientDir, file)}`)
      const value = kind[1] ?? constants.get(kind[2]!)
      if (!value) throw new Error(`cannot resolve kind ${kind[2]} in ${relative(clientDir, file)}`)
      found.push({ file: relative(clientDir, file), kind: value })
    }
  }
  return found
}

describe('all mutation kinds', () => {
  it('every kind queued by engine.mutate is registered with a label and a failure message', () => {
    const used = kindsUsedByMutate()
    // The client's features that queue changes (a sanity check of the scan itself).
    expect(new Set(used.map((u) => u.file.split('/')[1])).size).toBeGreaterThanOrEqual(6)
    const missing = used.filter((u) => !mutationKind(u.kind)?.label || !mutationKind(u.kind)?.failed)
    expect(missing).toEqual([])
  })

  it('names money actions by what they are', () => {
    const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
    expect(i18n._(mutationKind(REFUND)!.label)).toBe('Refund')
    expect(i18n._(mutationKind(ONE_TIME_CHARGE)!.label)).toBe('One-off payment')
    expect(i18n._(mutationKind(AGREEMENT_TERMINATE)!.label)).toBe('Termination')
  })
})
