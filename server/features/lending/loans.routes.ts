import type { z } from '@hono/zod-openapi'
import { DepositSettleRequest, Loan, LoanHandoverRequest, LoanReturnRequest, LoanTermsRequest, MyLoansQuery } from '../../../shared/contract/lending'
import { IdParam, itemRoutes } from '../../http/item-routes'
import { jsonBody, router, versionedWriteHeaders } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { LoansService } from './loans.service'

const r = itemRoutes({ tags: ['Lending'], entity: Loan, name: 'loan', scope: 'loan' })
const STEP =
  'The same step again answers the loan as it is (a double click, a retry); a step the loan is past or not at is 409 INVALID_STATE; a stale If-Match 412. ' +
  'Another association’s loan is 404; a member who is not a party 403.'

const mine = r.page('/loans', {
  summary: 'My loans, newest first: what I borrow (`role=borrower`) or lend (`role=lender`: my items, and the association’s for its administration)',
  query: MyLoansQuery,
  errors: [400, 401],
})
const getOne = r.read('/loans/{id}', {
  summary: 'A loan: members of the association see who borrows what when; its parties and the association’s staff see the contract',
})
/** What a step takes: the loan's id and If-Match, and a JSON body when it has one. */
type StepRequest<B> = { params: typeof IdParam; headers: typeof versionedWriteHeaders } & (B extends z.ZodType ? ReturnType<typeof jsonBody<B>> : object)
const stepErrors = [400, 401, 403, 404, 409, 412, 422] as const
/** A step of a loan by `{id}` with If-Match (and a body when it takes one): 200 with the loan. */
const step = <const P extends string, B extends z.ZodType | undefined = undefined>(path: P, summary: string, body?: B) =>
  r.route({
    // Whose step it is (loans.service.ts `stepper`), decided before the body too.
    rules: { access: 'signed-in', data: 'write', scope: { of: 'loan', act: `loan:${path.slice(path.lastIndexOf('/') + 1)}` } },
    method: 'post',
    path,
    summary,
    description: STEP,
    request: { params: IdParam, headers: versionedWriteHeaders, ...(body ? jsonBody(body) : {}) } as StepRequest<B>,
    ok: { 200: r.one() },
    errors: stepErrors,
  })
const accept = step('/loans/{id}/accept', 'The lender accepts a request; open requests overlapping it are declined (their borrowers are told)')
const decline = step('/loans/{id}/decline', 'The lender declines a request (or an accepted loan before the contract is confirmed)')
const cancel = step(
  '/loans/{id}/cancel',
  'The borrower cancels before the handover; a deposit already asked for is given back (refunded or its charge cancelled)',
)
const terms = step('/loans/{id}/terms', 'The lender changes the contract (dates, condition on handover); both confirmations start over', LoanTermsRequest)
const confirm = step(
  '/loans/{id}/confirm',
  'A party confirms the contract; with both, it is CONFIRMED and the deposit (if any) is charged on the borrower’s accepted agreement (422 for a borrower without one)',
)
const handover = step(
  '/loans/{id}/handover',
  'The lender records the handover and the condition it left in; the return reminders are planned',
  LoanHandoverRequest,
)
const ret = step(
  '/loans/{id}/return',
  'The lender records the return and its condition. Without `damage` the deposit goes back in full; with it the deposit waits for the administration',
  LoanReturnRequest,
)
const settle = r.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'loan', act: 'loan:settle' } },
  method: 'post',
  path: '/loans/{id}/deposit/settle',
  summary: 'The association’s chairman, administrator or accountant settles a deposit held for damage: refunds `refundOre` of it (0–the deposit; 0 keeps it)',
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(DepositSettleRequest) },
  ok: { 200: r.one() },
  errors: stepErrors,
})

export const loansRoutes = (loans: LoansService) =>
  router()
    .openapi(mine, async (c) => {
      const page = await loans.mine(requireActor(c.var.actor), c.req.valid('query'))
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(getOne, async (c) => {
      const loan = await loans.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(accept, async (c) => {
      const loan = await loans.accept(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(decline, async (c) => {
      const loan = await loans.decline(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(cancel, async (c) => {
      const loan = await loans.cancel(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(terms, async (c) => {
      const loan = await loans.terms(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(confirm, async (c) => {
      const loan = await loans.confirm(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(handover, async (c) => {
      const loan = await loans.handover(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(ret, async (c) => {
      const loan = await loans.return(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
    .openapi(settle, async (c) => {
      const loan = await loans.settleDeposit(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, loan.version)
      return c.json(loan, 200)
    })
