import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi'
import { z } from 'zod'
import { ErrorBody } from '../../shared/contract/common'
import type { AppEnv } from './app-env'
import { validationHook } from './error-mapper'

/** A router whose validation failures go through the one error mapper. */
export const router = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never })

/** `content` of a JSON request or response body. */
export const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } })

export const jsonBody = <T extends z.ZodType>(schema: T) => ({ body: { ...json(schema), required: true } })

const error = (description: string) => ({ description, ...json(ErrorBody) })

/** The error answers every route may give, documented once. */
export const errorResponses = {
  400: error('Validation failed or malformed JSON (`VALIDATION_FAILED`, `MALFORMED_JSON`)'),
  401: error('Not signed in, or the session expired (`UNAUTHENTICATED`)'),
  403: error('Signed in, but the role does not allow this (`FORBIDDEN`)'),
  404: error('No such entity, or one the caller cannot see (`NOT_FOUND`)'),
  409: error('Not allowed in the current state, a duplicate, or the same Idempotency-Key still running'),
  412: error('`If-Match` names an old version (`VERSION_CONFLICT`); `current` holds the entity'),
  413: error('Body over 1 MiB (`PAYLOAD_TOO_LARGE`)'),
  422: error('A business rule refused it, or the Idempotency-Key was used for another request'),
  429: error('Too many attempts (`RATE_LIMITED`), see `Retry-After`'),
} as const

export const bearer = [{ bearerAuth: [] }]

/** Headers a write accepts (docs/API.md "Writes"); checked by the write-transaction middleware. */
export const writeHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'Makes a retry safe: the same key and request replays the stored answer (`Idempotent-Replayed: true`)' }),
})

/** Headers of a write to a versioned entity: adds `If-Match: "<version>"`. */
export const versionedWriteHeaders = writeHeaders.extend({
  'if-match': z.string().max(20).optional().meta({ description: 'The version the change is based on; a stale one answers 412' }),
})

export type Route = RouteConfig
