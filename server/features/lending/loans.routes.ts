import { createRoute, z } from '@hono/zod-openapi'
import { DepositSettleRequest, Loan, LoanHandoverRequest, LoanReturnRequest, LoanTermsRequest, MyLoansQuery } from '../../../shared/contract/lending'
import { bearer, errorResponses as e, json, jsonBody, router, versionedWriteHeaders } from '../../http/openapi'
import { nextLinkHeader, setNextLink } from '../../http/paging'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../access/actor'
import type { LoansService } from './loans.service'

const tags = ['Lending']
const IdParam = z.object({ id: z.uuid() })
const one = { description: 'The loan (ETag: its version)', ...json(Loan) }
const STEP =
  'The same step again answers the loan as it is (a double click, a retry); a step the loan is past or not at is 409 INVALID_STATE; a stale If-Match 412. ' +
  'Another association’s loan is 404; a member who is not a party 403.'

const mine = createRoute({
  method: 'get',
  path: '/loans',
  tags,
  security: bearer,
  summary: 'My loans, newest first: what I borrow (`role=borrower`) or lend (`role=lender`: my items, and the association’s for its administration)',
  request: { query: MyLoansQuery },
  responses: { 200: { description: 'A page of loans', headers: nextLinkHeader, ...json(z.array(Loan)) }, 400: e[400], 401: e[401] },
})
const getOne = createRoute({
  method: 'get',
  path: '/loans/{id}',
  tags,
  security: bearer,
  summary: 'A loan: members of the association see who borrows what when; its parties and the association’s staff see the contract',
  request: { params: IdParam },
  responses: { 200: one, 401: e[401], 404: e[404] },
})
const responses = { 200: one, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] }
const stepRoute = (path: string, summary: string) =>
  createRoute({
    method: 'post',
    path,
    tags,
    security: bearer,
    summary,
    description: STEP,
    request: { params: IdParam, headers: versionedWriteHeaders },
    responses,
  })
const bodyStepRoute = <T extends z.ZodType>(path: string, summary: string, body: T) =>
  createRoute({
    method: 'post',
    path,
    tags,
    security: bearer,
    summary,
    description: STEP,
    request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(body) },
    responses,
  })
const accept = stepRoute('/loans/{id}/accept', 'The lender accepts a request; open requests overlapping it are declined (their borrowers are told)')
const decline = stepRoute('/loans/{id}/decline', 'The lender declines a request (or an accepted loan before the contract is confirmed)')
const cancel = stepRoute(
  '/loans/{id}/cancel',
  'The borrower cancels before the handover; a deposit already asked for is given back (refunded or its charge cancelled)',
)
const terms = bodyStepRoute(
  '/loans/{id}/terms',
  'The lender changes the contract (dates, condition on handover); both confirmations start over',
  LoanTermsRequest,
)
const confirm = stepRoute(
  '/loans/{id}/confirm',
  'A party confirms the contract; with both, it is CONFIRMED and the deposit (if any) is charged on the borrower’s accepted agreement (422 for a borrower without one)',
)
const handover = bodyStepRoute(
  '/loans/{id}/handover',
  'The lender records the handover and the condition it left in; the return reminders are planned',
  LoanHandoverRequest,
)
const ret = bodyStepRoute(
  '/loans/{id}/return',
  'The lender records the return and its condition. Without `damage` the deposit goes back in full; with it the deposit waits for the administration',
  LoanReturnRequest,
)
const settle = createRoute({
  method: 'post',
  path: '/loans/{id}/deposit/settle',
  tags,
  security: bearer,
  summary: 'The association’s chairman, administrator or accountant settles a deposit held for damage: refunds `refundOre` of it (0–the deposit; 0 keeps it)',
  request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(DepositSettleRequest) },
  responses: { 200: one, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409], 412: e[412], 422: e[422] },
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
