import { describe, expect, it } from 'vitest'
import { messagesBase } from './base-path'

describe('messagesBase (docs/PRODUCT.md §2)', () => {
  it.each([
    ['/super-admin/messages', '/super-admin/messages'],
    ['/super-admin/messages/create', '/super-admin/messages'],
    ['/member/messages/0190-abc', '/member/messages'],
    ['/company/messages/0190-abc/edit', '/company/messages'],
    ['/messages', '/messages'],
    ['/messages/create', '/messages'],
  ])('%s → %s', (path, base) => expect(messagesBase(path)).toBe(base))
})
