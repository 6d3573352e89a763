import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type { Problem } from '../vipps.schemas'

/**
 * RFC 7807 problems as the Recurring API sends them: `type` is the documented problem page plus
 * an identifier (https://developer.vippsmobilepay.com/docs/APIs/recurring-api/recurring-api-problems/),
 * `extraDetails` names the offending field, `contextId` identifies the request.
 */
export const PROBLEM_TYPE_BASE = 'https://developer.vippsmobilepay.com/docs/APIs/recurring-api/vipps-recurring-api-problems#'

export type ProblemId =
  | 'validation-error'
  | 'invalid-agreement-id'
  | 'invalid-json'
  | 'unsupported-media-type'
  | 'not-authorized'
  | 'idempotency-key-header'
  | 'charge-amount-too-high'
  | 'charge-due-too-soon'
  | 'charge-due-in-too-long'
  | 'unsupported-feature'
  | 'illegal-agreement-update'
  | 'invalid-suggested-max-amount'
  | 'cancel-charge-failed'
  | 'charge-creation-failed'
  | 'charge-capture-failed'
  | 'missing-request-header'
  | 'resource-not-found'
  | 'operation-failed'
  | 'conflict'
  | 'idempotency-conflict'
  | 'internal-error'
  | 'gateway-timeout'

export interface ExtraDetail {
  name: string
  reason: string
}

/** Thrown by the emulator's services and guards; the app's onError turns it into problem+json. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problemId: ProblemId,
    detail: string,
    readonly extraDetails: ExtraDetail[] = [],
  ) {
    super(detail)
    this.name = 'ProblemError'
  }
}

/** A rule on one field was broken (HTTP 400). */
export const fieldProblem = (problemId: ProblemId, name: string, reason: string, detail = reason) =>
  new ProblemError(400, problemId, detail, [{ name, reason }])

export const validationError = (name: string, reason: string) => fieldProblem('validation-error', name, reason, 'Input validation failed')

export const notFound = (what: string, id: string) =>
  new ProblemError(404, 'resource-not-found', `${what} not found`, [
    {
      name:
        what === 'Agreement' ? 'agreementId'
        : what === 'Charge' ? 'chargeId'
        : 'id',
      reason: `No ${what.toLowerCase()} with id ${id}`,
    },
  ])

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  504: 'Gateway Timeout',
}

export function problemBody(err: ProblemError, instance: string): Problem {
  return {
    type: PROBLEM_TYPE_BASE + err.problemId,
    title: titles[err.status] ?? 'Error',
    status: err.status,
    detail: err.message,
    instance,
    contextId: randomUUID(),
    extraDetails: err.extraDetails,
  }
}

export function problemResponse(err: ProblemError, instance: string): Response {
  return new Response(JSON.stringify(problemBody(err, instance)), {
    status: err.status,
    headers: { 'Content-Type': 'application/problem+json' },
  })
}

/** Parses with a zod schema; every issue becomes one `extraDetails` entry naming its field. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw new ProblemError(
    400,
    'validation-error',
    'Input validation failed',
    result.error.issues.map((issue) => ({ name: issue.path.join('.') || 'body', reason: issue.message })),
  )
}
