/**
 * The state a lending journey begins at, made through the API (e2e/lending*.e2e.ts): an item of
 * its own, and a loan of it brought to the step the journey starts from, so each test stands on
 * its own instead of on the tests before it.
 */

/** A Copenhagen calendar date `days` from today. */
export const dayFromToday = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date(Date.now() + days * 86_400_000))

/** The demo association's CVR (server/db/seed.ts). */
const DEMO_CVR = '10150817'

export interface LoanRow {
  status: string
  lender_confirmed_at: string | null
  borrower_confirmed_at: string | null
  condition_back: string | null
}

export function lendingApi(deps: {
  api: <T>(token: string | null, method: string, path: string, body?: unknown) => Promise<T>
  tokenOf: (email: string) => Promise<string>
  serverRows: <T>(sql: string, ...params: unknown[]) => T[]
}) {
  const { api, tokenOf, serverRows } = deps

  /** A loan's row in the server's database. */
  const loan = (id: string) => serverRows<LoanRow>('SELECT status, lender_confirmed_at, borrower_confirmed_at, condition_back FROM loans WHERE id = ?', id)[0]

  /** Lends an item of the demo association, as `email` (a member, or the administration with `lender: 'ASSOCIATION'`): its id. */
  async function item(
    email: string,
    fields: { title: string; description?: string; rules?: string; location?: string; depositOre?: number; lender?: 'ASSOCIATION' },
  ): Promise<string> {
    const companyId = serverRows<{ id: string }>('SELECT id FROM companies WHERE cvr = ?', DEMO_CVR)[0]!.id
    return (await api<{ id: string }>(await tokenOf(email), 'POST', '/lending', { companyId, ...fields })).id
  }

  /**
   * A loan of `itemId` to `borrower`, asked for, accepted and confirmed by both, and handed over,
   * up to `step`, each step as its party takes it (`lender`: the member, or the administration for
   * the association's item). Returns its id.
   */
  async function loanTo(
    step: 'REQUESTED' | 'CONFIRMED' | 'HANDED_OVER',
    o: { itemId: string; lender: string; borrower: string; from: string; to: string },
  ): Promise<string> {
    const borrower = await tokenOf(o.borrower)
    const { id } = await api<{ id: string }>(borrower, 'POST', `/lending/${o.itemId}/loans`, { fromDate: o.from, toDate: o.to })
    if (step === 'REQUESTED') return id
    const lender = await tokenOf(o.lender)
    await api(lender, 'POST', `/loans/${id}/accept`)
    await api(lender, 'POST', `/loans/${id}/confirm`)
    await api(borrower, 'POST', `/loans/${id}/confirm`)
    if (step === 'CONFIRMED') return id
    await api(lender, 'POST', `/loans/${id}/handover`, { condition: 'Som ny.' })
    return id
  }

  return { item, loan, loanTo }
}
