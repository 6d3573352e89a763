import { createServer, IncomingMessage, ServerResponse, STATUS_CODES, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { getRequestListener } from '@hono/node-server'
import type { ErrorCode } from '../../shared/errors'
import type { ErrorBody } from '../../shared/contract/common'
import { localeFromHeader, translate, type Locale } from '../i18n/i18n'
import { markFromWire } from './wire-request'

/**
 * Limits of the HTTP layer below the app (README "Security", docs/security/http.md).
 * Request bodies are limited by the app itself (1 MiB, attachments 5 MB: app.ts).
 */
export interface HttpLimits {
  /** Request line plus all header lines, enforced by Node's parser (maxHeaderSize); above it 431, or 414 when the request line alone is too long. */
  maxHeaderBytes: number
  /** The request target (path and query); above it 414. */
  maxUrlBytes: number
  /**
   * When the app answers before it has read a request body (413, 401, 404 …), a remaining body of at
   * most this declared Content-Length is read and thrown away so the keep-alive connection serves the
   * next request. A larger or chunked body is answered with `Connection: close` instead.
   */
  maxDrainBytes: number
  /**
   * After an answer with `Connection: close`, the server keeps reading (and discarding) what the client
   * still sends for at most this long before it closes the socket, so the client reads the answer
   * instead of a connection reset (closing a socket with unread data sends a TCP RST).
   */
  lingerMs: number
}

export const httpLimits: HttpLimits = {
  maxHeaderBytes: 16 * 1024,
  maxUrlBytes: 8 * 1024,
  maxDrainBytes: 8 * 1024 * 1024,
  lingerMs: 2000,
}

const KiB = 1024
const uriTooLong = /*i18n*/ { id: 'The URL is too long (at most {kib} KiB).' }
const headersTooLarge = /*i18n*/ { id: 'The request headers are too large (at most {kib} KiB).' }

type AppFetch = (request: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => unknown

/**
 * The Node HTTP server that `npm start` listens with (server/main.ts), around Hono's request listener.
 * Beyond @hono/node-server's `serve` it keeps keep-alive connections usable after an early answer
 * (see HttpLimits), answers an over-long URL with 414 and over-large headers with 431 in the
 * contract's error body `{message, code}`, and closes such connections without a reset.
 */
export function createNodeServer(fetch: AppFetch, limits: HttpLimits = httpLimits): Server {
  // Hono's own clean-up reads an unread body for at most 500 ms and then destroys the socket even
  // though it answered keep-alive (the next request on it fails): the clean-up here replaces it.
  const listener = getRequestListener(
    ((request: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => {
      markFromWire(request)
      return fetch(request, env)
    }) as never,
    { autoCleanupIncoming: false },
  )

  class Response_ extends ServerResponse {
    // Every answer (also Node's implicit headers) passes here just before its head is written.
    override writeHead(...args: unknown[]): this {
      if (!this.headersSent && bodyLeft(this.req, limits) === 'close') closeAfterAnswer(this, limits)
      return (ServerResponse.prototype.writeHead as (...a: unknown[]) => this).apply(this, args)
    }
  }

  const server = createServer({ maxHeaderSize: limits.maxHeaderBytes, ServerResponse: Response_ }, (req, res) => {
    res.once('finish', () => discardBody(req))
    if ((req.url ?? '').length > limits.maxUrlBytes)
      return answer(res, 414, 'URI_TOO_LONG', uriTooLong.id, limits.maxUrlBytes, localeFromHeader(req.headers['accept-language']))
    // The listener answers every error itself (error-mapper.ts); nothing is left to await here.
    void listener(req, res)
  })
  const answered = new WeakSet<Duplex>()
  server.on('clientError', (err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    // A parse error is reported again for every later packet on the same socket: answer once.
    if (answered.has(socket)) return
    answered.add(socket)
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy()
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const raw = err.rawPacket?.toString('latin1') ?? ''
      const locale = localeFromHeader(/\r\naccept-language:[ \t]*([^\r\n]*)/i.exec(raw)?.[1]) ?? 'en'
      const [status, code, message, limit] =
        requestLineTooLong(raw, limits) ?
          ([414, 'URI_TOO_LONG', uriTooLong.id, limits.maxUrlBytes] as const)
        : ([431, 'HEADERS_TOO_LARGE', headersTooLarge.id, limits.maxHeaderBytes] as const)
      const json = errorJson(code, message, limit, locale)
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
          `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${json}`,
      )
    } else {
      // Other parse errors and timeouts: Node's own answers (no body; the client sent no valid request).
      const status =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408
        : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413
        : 400
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`)
    }
    linger(socket, limits, () => undefined)
  })
  return server
}

/** What the request still has to receive when its answer starts: nothing, a body to drain, or too much (close). */
function bodyLeft(req: IncomingMessage, limits: HttpLimits): 'nothing' | 'drain' | 'close' {
  if (req.complete) return 'nothing'
  const chunked = req.headers['transfer-encoding'] !== undefined
  const length = req.headers['content-length']
  if (!chunked && (length === undefined || Number(length) === 0)) return 'nothing'
  return !chunked && Number(length) <= limits.maxDrainBytes ? 'drain' : 'close'
}

/** After its answer, whatever the app left of a request body is read and thrown away (no reader may pause it). */
function discardBody(req: IncomingMessage) {
  if (req.readableEnded || req.destroyed) return
  req.removeAllListeners('data')
  req.removeAllListeners('readable')
  req.resume()
}

/**
 * Answers with `Connection: close`; when Node then closes the socket (destroySoon), the socket is
 * half-closed and the rest of the body read and discarded until it ends or `lingerMs` passes.
 */
function closeAfterAnswer(res: ServerResponse, limits: HttpLimits) {
  res.setHeader('Connection', 'close')
  const socket = res.socket
  if (!socket) return
  socket.destroySoon = () => {
    socket.end()
    discardBody(res.req)
    linger(socket, limits, (done) => {
      res.req.once('end', done)
      res.req.once('error', done)
    })
  }
}

/** Destroys an ended socket once the client closes, `until` says so, or after `lingerMs`. */
function linger(socket: Duplex, limits: HttpLimits, until: (done: () => void) => void) {
  let closed = false
  const done = () => {
    if (closed) return
    closed = true
    clearTimeout(timer)
    if (socket.writableFinished) socket.destroy()
    else socket.once('finish', () => socket.destroy())
  }
  const timer = setTimeout(done, limits.lingerMs)
  timer.unref()
  socket.once('end', done)
  socket.once('close', () => clearTimeout(timer))
  until(done)
  // Keeps reading what the client still sends so that nothing unread is left at the close.
  socket.resume()
}

/** Whether a packet that overflowed the header limit is still in its request line, and that line is longer than the URL limit. */
function requestLineTooLong(raw: string, limits: HttpLimits): boolean {
  const method = /^[A-Z]+ /.exec(raw)
  if (!method) return false
  const end = raw.indexOf('\r\n')
  return (end === -1 ? raw.length : end) - method[0].length > limits.maxUrlBytes
}

/** The contract's error body (as server/http/error-mapper.ts writes it) for a limit in KiB. */
function errorJson(code: ErrorCode, message: string, limit: number, locale: Locale): string {
  const body: ErrorBody = { message: translate(locale, message, { kib: limit / KiB }), code }
  return JSON.stringify(body)
}

function answer(res: ServerResponse, status: number, code: ErrorCode, message: string, limit: number, locale: Locale | undefined) {
  const json = errorJson(code, message, limit, locale ?? 'en')
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  })
  res.end(json)
}
