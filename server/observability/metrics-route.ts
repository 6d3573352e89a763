/**
 * Where an operator's Prometheus reads the metrics (README "Running at scale"): `GET /metrics` on
 * the public port only with `Authorization: Bearer <METRICS_TOKEN>`, and without a token on
 * METRICS_PORT, a listener of its own meant for the private network (main.ts). Neither set: the
 * path is not there (404), so nothing about the server is told to the internet by default.
 */
import { timingSafeEqual, createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { Context } from 'hono'
import { metrics } from './metrics'

const digest = (s: string) => createHash('sha256').update(s).digest()

/** Compares in constant time (the token is a secret). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1]
  return !!given && timingSafeEqual(digest(given), digest(token))
}

/** The metrics as Prometheus reads them. */
export async function metricsAnswer(): Promise<Response> {
  const { contentType, body } = await metrics().text()
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } })
}

/** `GET /metrics` on the public port, registered only when METRICS_TOKEN is set: 401 without it. */
export const metricsRoute = (token: string) => async (c: Context) => {
  if (!tokenMatches(c.req.header('Authorization'), token))
    return c.json({ code: 'UNAUTHORIZED', message: 'The metrics need the operator’s token.' }, 401, { 'WWW-Authenticate': 'Bearer' })
  return await metricsAnswer()
}

/**
 * METRICS_PORT: a listener of its own that answers `GET /metrics` without a token and 404 to
 * anything else, bound to METRICS_HOST (127.0.0.1 unless the operator opens it to a private network).
 */
export function serveMetrics(options: { port: number; host: string }, onListening?: () => void): Server {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end()
      return
    }
    metrics()
      .text()
      .then(({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body))
      .catch(() => res.writeHead(500).end())
  })
  server.listen(options.port, options.host, onListening)
  return server
}
