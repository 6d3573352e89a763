import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { Clock } from '../../../lib/clock'
import { normalizePhone, subjectForPhone } from './emulator.ids'
import type { EmulatorState } from './emulator.state'
import { ProblemError, parseOr400 } from './problems'
import type { RecurringService } from './recurring.service'
import type { DeliveryRun } from './webhooks.delivery'

/**
 * `/_control/*`: levers for tests and demos that the real API does not have (clock, processing
 * run, injected failures, webhook modes, approving without a browser, the sign-in page's people,
 * reset). JSON in and out; mistakes answer problem+json like the API. Not protected: the emulator
 * only runs outside production.
 */
export interface ControlDeps {
  state: EmulatorState
  /** The injected clock, to which the offset is added. */
  baseClock: Clock
  /** The emulator's business clock (base + offset). */
  clock: Clock
  recurring: RecurringService
  processDue: (options: { hold?: boolean }) => number
  deliver: (options: { all?: boolean }) => Promise<DeliveryRun>
  reset: () => void
}

const ClockRequest = z
  .object({ advanceMs: z.number().int().optional(), set: z.string().optional() })
  .refine((b) => (b.advanceMs === undefined) !== (b.set === undefined), { message: 'Give either advanceMs or set' })
const ProcessDueRequest = z.object({ hold: z.boolean().optional() })
const FailNextCharges = z.object({
  count: z.number().int().min(0),
  reason: z.enum(['user_action_required', 'charge_amount_too_high', 'non_technical_error', 'technical_error']).default('user_action_required'),
  /** Keep the charge DUE through its retry days before it fails, as Vipps retries do. */
  exhaustRetries: z.boolean().default(false),
})
const FailNextCalls = z.object({
  count: z.number().int().min(0),
  mode: z.enum(['500', 'timeout', 'timeout-after-effect']).default('500'),
  /** Also fail POST /accesstoken/get (by default only Recurring and Webhooks API calls fail). */
  includeToken: z.boolean().default(false),
})
const ChaosRequest = z
  .object({ errorRate: z.number().min(0).max(1).default(0), timeoutRate: z.number().min(0).max(1).default(0), seed: z.number().int().default(1) })
  .refine((b) => b.errorRate + b.timeoutRate <= 1, { message: 'errorRate + timeoutRate must be at most 1' })
const WebhookModeRequest = z.object({ mode: z.enum(['normal', 'duplicate', 'reverse']) })
const DeliverRequest = z.object({ all: z.boolean().optional() })
const ApproveRequest = z.object({ phoneNumber: z.string().optional() })
const LoginUsersRequest = z.object({
  users: z
    .array(
      z.object({
        phoneNumber: z.string().refine((p) => normalizePhone(p) !== null, 'Must be a phone number'),
        name: z.string().optional(),
        email: z.string().optional(),
      }),
    )
    .max(500),
})

async function body(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new ProblemError(400, 'invalid-json', 'The request body is not valid JSON')
  }
}

export function controlRoutes(deps: ControlDeps) {
  const { state, recurring } = deps
  const clockView = () => ({ now: deps.clock.now().toISOString(), offsetMs: state.data.clockOffsetMs })

  return new Hono()
    .get('/_control/clock', (c) => c.json(clockView()))
    .post('/_control/clock', async (c) => {
      const req = parseOr400(ClockRequest, await body(c))
      if (req.advanceMs !== undefined) state.data.clockOffsetMs += req.advanceMs
      if (req.set !== undefined) {
        const at = Date.parse(req.set)
        if (!Number.isFinite(at))
          throw new ProblemError(400, 'validation-error', 'Input validation failed', [{ name: 'set', reason: 'Must be an ISO 8601 instant' }])
        state.data.clockOffsetMs = at - deps.baseClock.now().getTime()
      }
      state.changed()
      recurring.expirePending()
      return c.json(clockView())
    })
    .post('/_control/process-due', async (c) => c.json({ moved: deps.processDue(parseOr400(ProcessDueRequest, await body(c))) }))
    .post('/_control/fail-next-charges', async (c) => {
      state.data.faults.failNextCharges = parseOr400(FailNextCharges, await body(c))
      state.changed()
      return c.json(state.data.faults.failNextCharges)
    })
    .post('/_control/fail-next-calls', async (c) => {
      state.data.faults.failNextCalls = parseOr400(FailNextCalls, await body(c))
      state.changed()
      return c.json(state.data.faults.failNextCalls)
    })
    .post('/_control/chaos', async (c) => {
      state.data.faults.chaos = parseOr400(ChaosRequest, await body(c))
      state.changed()
      return c.json(state.data.faults.chaos)
    })
    .post('/_control/webhooks', async (c) => {
      state.data.faults.webhookMode = parseOr400(WebhookModeRequest, await body(c)).mode
      state.changed()
      return c.json({ mode: state.data.faults.webhookMode })
    })
    .post('/_control/deliver-webhooks', async (c) => c.json(await deps.deliver(parseOr400(DeliverRequest, await body(c)))))
    .get('/_control/state', (c) => c.json({ ...clockView(), ...state.data }))
    .post('/_control/approve/:agreementId', async (c) => {
      const req = parseOr400(ApproveRequest, await body(c))
      return c.json(recurring.agreementView(recurring.approve(c.req.param('agreementId'), req.phoneNumber)))
    })
    .post('/_control/reject/:agreementId', (c) => c.json(recurring.agreementView(recurring.reject(c.req.param('agreementId')))))
    .post('/_control/stop/:agreementId', (c) => c.json(recurring.agreementView(recurring.stopByMember(c.req.param('agreementId')))))
    .put('/_control/login-users', async (c) => {
      // A standalone emulator cannot read the product's users: the product tells it whom to offer
      // on the sign-in page (docs/decisions/0055). Replaces the list; kept in the state file.
      const req = parseOr400(LoginUsersRequest, await body(c))
      state.data.loginUsers = req.users.map((u) => {
        const phoneNumber = normalizePhone(u.phoneNumber)!
        return { ...u, phoneNumber, sub: subjectForPhone(phoneNumber) }
      })
      state.changed()
      return c.json({ users: state.data.loginUsers.length })
    })
    .post('/_control/reset', (c) => {
      deps.reset()
      return c.json(clockView())
    })
}
