import { randomUUID } from 'node:crypto'
import { demo, type TestApp } from './harness'
import { documentedRoutes as declaredRoutes } from '../http/route'

/**
 * The callers of the authorization matrix tests, one column each, in this order: super admin,
 * chairman, administrator, accountant, board member, resident (the first demo resident), another
 * resident of the same company ("neighbour"), another association's administrator, anonymous.
 */
export const callers = ['superadmin', 'chairman', 'admin', 'accountant', 'boardmember', 'resident', 'neighbour', 'otherAdmin', 'anonymous'] as const
export type Caller = (typeof callers)[number]

const emails: Record<Exclude<Caller, 'anonymous'>, string> = {
  superadmin: demo.superadmin,
  chairman: demo.chairman,
  admin: demo.admin,
  accountant: demo.accountant,
  boardmember: demo.boardmember,
  resident: demo.resident,
  neighbour: demo.residentDa,
  otherAdmin: demo.otherAdmin,
}

/** The caller's session token; none for the anonymous caller. */
export const tokenFor = async (t: Pick<TestApp, 'login'>, caller: Caller): Promise<string | undefined> =>
  caller === 'anonymous' ? undefined : t.login(emails[caller])

/**
 * A matrix cell for an answer: `1` 401, `3` 403, `4` 404, `o` any other answer (allowed: a 409 from
 * a status table is still allowed); a server error is spelled out so that it never passes as allowed.
 */
export const classOf = (status: number) =>
  status === 401 ? '1'
  : status === 403 ? '3'
  : status === 404 ? '4'
  : status >= 500 ? `error ${status}`
  : 'o'

/**
 * The routes the app declares under the given prefixes (`/market`, `/loans`, …), as
 * "METHOD /path" without `/api`: what a feature's authorization matrix must have a row for.
 */
export async function documentedRoutes(t: Pick<TestApp, 'app'>, ...prefixes: string[]): Promise<Set<string>> {
  return new Set(
    declaredRoutes(t.app)
      .map((r) => ({ method: r.method, path: r.path.slice('/api'.length) }))
      .filter((r) => prefixes.some((prefix) => r.path.startsWith(prefix)))
      .map((r) => `${r.method} ${r.path}`),
  )
}

/** A row of a feature's matrix: the method, the route as documented, the path for a context, one cell a caller, and a body. */
export type MatrixRow<C> = [method: string, route: string, path: (c: C) => string, expected: string, body?: (c: C) => unknown]

/**
 * One caller's pass through a matrix whose rows share one context: every row sent with a fresh
 * Idempotency-Key, as "METHOD /path → cell", the cells wanted beside the cells got (compare them
 * with one `toEqual`, so a failure shows every row at once).
 */
export async function walkMatrix<C>(
  t: Pick<TestApp, 'call' | 'login'>,
  table: readonly MatrixRow<C>[],
  c: C,
  caller: Caller,
): Promise<{ want: string[]; got: string[] }> {
  const token = await tokenFor(t, caller)
  const want: string[] = []
  const got: string[] = []
  for (const [method, , path, expected, body] of table) {
    want.push(`${method} ${path(c)} → ${expected[callers.indexOf(caller)]}`)
    const res = await t.call(method, path(c), { token, body: body?.(c), headers: { 'Idempotency-Key': randomUUID() } })
    got.push(`${method} ${path(c)} → ${classOf(res.status)}`)
  }
  return { want, got }
}
