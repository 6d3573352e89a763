import { Hono } from 'hono'
import { jsonBody, type EmulatorEnv } from './api.guard'
import type { RecurringService } from './recurring.service'

/**
 * Recurring API v3 endpoints (https://developer.vippsmobilepay.com/api/recurring/), same paths and
 * status codes as the real API: create 201, writes without a body 204. Rules live in the service.
 */
export function recurringRoutes(recurring: RecurringService) {
  const base = '/recurring/v3'
  return new Hono<EmulatorEnv>()
    .post(`${base}/agreements`, async (c) => c.json(recurring.createAgreement(c.var.msn, await jsonBody(c)), 201))
    .get(`${base}/agreements`, (c) => c.json(recurring.listAgreements(c.var.msn, c.req.query())))
    .get(`${base}/agreements/:agreementId`, (c) => c.json(recurring.getAgreement(c.var.msn, c.req.param('agreementId'))))
    .patch(`${base}/agreements/:agreementId`, async (c) => {
      recurring.patchAgreement(c.var.msn, c.req.param('agreementId'), await jsonBody(c))
      return c.body(null, 204)
    })
    .patch(`${base}/agreements/:agreementId/accept`, async (c) => {
      recurring.forceAccept(c.var.msn, c.req.param('agreementId'), await jsonBody(c))
      return c.body(null, 204)
    })
    .post(`${base}/agreements/:agreementId/charges`, async (c) =>
      c.json(recurring.createCharge(c.var.msn, c.req.param('agreementId'), await jsonBody(c), c.var.idempotencyKey), 201),
    )
    .get(`${base}/agreements/:agreementId/charges`, (c) => c.json(recurring.listCharges(c.var.msn, c.req.param('agreementId'), c.req.query('status'))))
    .get(`${base}/agreements/:agreementId/charges/:chargeId`, (c) =>
      c.json(recurring.getCharge(c.var.msn, c.req.param('agreementId'), c.req.param('chargeId'))),
    )
    .delete(`${base}/agreements/:agreementId/charges/:chargeId`, (c) => {
      recurring.cancelCharge(c.var.msn, c.req.param('agreementId'), c.req.param('chargeId'), c.var.idempotencyKey)
      return c.body(null, 204)
    })
    .post(`${base}/agreements/:agreementId/charges/:chargeId/capture`, async (c) => {
      recurring.captureCharge(c.var.msn, c.req.param('agreementId'), c.req.param('chargeId'), await jsonBody(c), c.var.idempotencyKey)
      return c.body(null, 204)
    })
    .post(`${base}/agreements/:agreementId/charges/:chargeId/refund`, async (c) => {
      recurring.refundCharge(c.var.msn, c.req.param('agreementId'), c.req.param('chargeId'), await jsonBody(c), c.var.idempotencyKey)
      return c.body(null, 204)
    })
    .get(`${base}/charges/:chargeId`, (c) => c.json(recurring.getChargeById(c.var.msn, c.req.param('chargeId'))))
}
