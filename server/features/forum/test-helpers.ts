import { v7 } from 'uuid'
import type { TestApp } from '../../test/harness'

/** `POST /api/forum/threads` as the given user. */
export async function startThread(t: TestApp, token: string | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return await t.call('POST', '/forum/threads', { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })
}

/** `POST /api/forum/threads/{id}/posts` as the given user. */
export async function replyTo(t: TestApp, token: string | undefined, threadId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return await t.call('POST', `/forum/threads/${threadId}/posts`, { token, body, headers: { 'Idempotency-Key': v7(), ...headers } })
}

/** A thread's posts as the given user. */
export async function postsOf(t: TestApp, token: string, threadId: string) {
  const res = await t.call('GET', `/forum/threads/${threadId}/posts`, { token })
  return res.json as { id: string; body: string; opening: boolean; deleted: boolean; hidden: unknown; author: { fullName: string }; version: number }[]
}
