/**
 * The HTTP layer below the app, on a real Node server on 127.0.0.1 (the same createNodeServer that
 * server/main.ts listens with): early answers keep keep-alive connections usable, over-long URLs
 * and headers get the contract's JSON error body, and closed connections end without a reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { createNodeServer, httpLimits } from './node-server'
import { testApp } from '../test/harness'

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string; json: any; localPort: number }

let server: http.Server
let port: number
/** The server side of every connection, to see how many the client opened. */
let connections = 0

beforeAll(async () => {
  const t = await testApp()
  server = createNodeServer(t.app.fetch)
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** One request through `agent`; resolves with the whole answer, rejects on any socket error. */
function send(agent: http.Agent, method: string, path: string, options: { body?: Buffer | string; headers?: Record<string, string> } = {}) {
  return new Promise<Reply>((resolve, reject) => {
    const headers = { ...options.headers }
    if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body))
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (d: Buffer) => chunks.push(d))
      res.on('error', reject)
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, json, localPort: req.socket!.localPort! })
      })
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

/** A keep-alive agent with one socket: every request goes over the same connection while it stays open. */
const oneConnection = () => new http.Agent({ keepAlive: true, maxSockets: 1 })

/** Fifty ordinary requests in a row over the agent's connection. */
async function fiftyOrdinary(agent: http.Agent) {
  const replies: Reply[] = []
  for (let i = 0; i < 50; i++) replies.push(await send(agent, 'GET', '/api/health'))
  return replies
}

/** Writes `head` on a raw socket and reads until the server closes it; `reset` tells whether it ended with an error. */
function rawExchange(head: string): Promise<{ text: string; reset: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let reset = false
    socket.on('data', (d) => chunks.push(d))
    socket.on('error', () => (reset = true))
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), reset }))
    socket.write(head)
  })
}

const twoMiB = JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024) })

describe('keep-alive after early answers', () => {
  it('a 2 MB body gets 413 with the contract body, then 50 ordinary requests on the same connection all answer', async () => {
    const agent = oneConnection()
    const before = connections
    const big = await send(agent, 'POST', '/api/auth/forgot-password', { body: twoMiB, headers: { 'Content-Type': 'application/json' } })
    expect(big.status).toBe(413)
    expect(big.json).toEqual({ message: 'The request is too large (at most 1 MiB).', code: 'PAYLOAD_TOO_LARGE' })
    expect(big.headers.connection).toBe('keep-alive')

    const replies = await fiftyOrdinary(agent)
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(replies.every((r) => r.json?.status === 'ok')).toBe(true)
    // The body was read and discarded: all 51 answers came over the one connection.
    expect(new Set([big, ...replies].map((r) => r.localPort)).size).toBe(1)
    expect(connections - before).toBe(1)
    agent.destroy()
  })

  it('a 401 answered before a large body is read keeps the connection usable', async () => {
    const agent = oneConnection()
    const body = JSON.stringify({ subject: 'x'.repeat(900 * 1024) })
    const refused = await send(agent, 'POST', '/api/messages', {
      body,
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer not-a-valid-token-at-all' },
    })
    expect(refused.status).toBe(401)
    expect(refused.json).toEqual({ message: 'Please sign in again.', code: 'UNAUTHENTICATED' })
    const again = await send(agent, 'POST', '/api/messages', { body, headers: { 'Content-Type': 'application/json' } })
    expect(again.status).toBe(401)
    const replies = await fiftyOrdinary(agent)
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(new Set([refused, again, ...replies].map((r) => r.localPort)).size).toBe(1)
    agent.destroy()
  })

  it('a body too large to drain is answered with Connection: close, read without a reset, and the next requests answer', async () => {
    const agent = oneConnection()
    const huge = Buffer.alloc(httpLimits.maxDrainBytes + 1024 * 1024, 'a')
    const big = await send(agent, 'POST', '/api/auth/forgot-password', { body: huge, headers: { 'Content-Type': 'application/json' } })
    expect(big.status).toBe(413)
    expect(big.json.code).toBe('PAYLOAD_TOO_LARGE')
    expect(big.headers.connection).toBe('close')
    const replies = await fiftyOrdinary(agent)
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(new Set(replies.map((r) => r.localPort)).size).toBe(1)
    expect(replies[0]!.localPort).not.toBe(big.localPort)
    agent.destroy()
  })

  it('the client reads that 413 even when it reads only after sending the whole body (no reset from unread data)', async () => {
    const body = Buffer.alloc(httpLimits.maxDrainBytes + 1024 * 1024, 'a')
    const result = await new Promise<{ text: string; error?: string }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      const chunks: Buffer[] = []
      let error: string | undefined
      socket.pause()
      socket.on('data', (d) => chunks.push(d))
      socket.on('error', (e) => (error = String(e)))
      socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), error }))
      socket.write(`POST /api/auth/forgot-password HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
      // Reads the answer only once the whole body has left: a server that closed with unread data would have reset it.
      socket.write(body, () => socket.resume())
    })
    expect(result.error).toBeUndefined()
    expect(result.text).toMatch(/^HTTP\/1\.1 413 /)
    expect(result.text).toContain('Connection: close')
    expect(JSON.parse(result.text.split('\r\n\r\n')[1]!).code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('a chunked body over the limit is answered 413 with Connection: close', async () => {
    const agent = oneConnection()
    const reply = await new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/auth/forgot-password', agent, headers: { 'Content-Type': 'application/json' } },
        (res) => {
          let text = ''
          res.on('data', (d) => (text += d))
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: JSON.parse(text), localPort: 0 }))
        },
      )
      req.on('error', reject)
      for (let i = 0; i < 20; i++) req.write(Buffer.alloc(100 * 1024, 'a'))
      req.end()
    })
    expect(reply.status).toBe(413)
    expect(reply.json.code).toBe('PAYLOAD_TOO_LARGE')
    expect(reply.headers.connection).toBe('close')
    expect((await send(agent, 'GET', '/api/health')).status).toBe(200)
    agent.destroy()
  })
})

describe('over-long URLs and headers', () => {
  it('a 20 kB path gets 414 with the contract body (in the asked language) and a clean close', async () => {
    const path = '/api/' + 'a'.repeat(20 * 1024)
    const { text, reset } = await rawExchange(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: da\r\n\r\n`)
    expect(reset).toBe(false)
    const [head, body] = text.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 414 URI Too Long\r\n/)
    expect(head).toContain('Connection: close')
    expect(head).toContain('Content-Type: application/json')
    expect(JSON.parse(body!)).toEqual({ message: "URL'en er for lang (højst 8 KiB).", code: 'URI_TOO_LONG' })
  })

  it('the 431 is read even when the client sends more header bytes before reading (no reset)', async () => {
    const result = await new Promise<{ text: string; error?: string }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      const chunks: Buffer[] = []
      let error: string | undefined
      socket.pause()
      socket.on('data', (d) => chunks.push(d))
      socket.on('error', (e) => (error = String(e)))
      socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), error }))
      socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: `)
      socket.write(Buffer.alloc(4 * 1024 * 1024, 'd'), () => socket.resume())
    })
    expect(result.error).toBeUndefined()
    expect(result.text).toMatch(/^HTTP\/1\.1 431 /)
    expect(JSON.parse(result.text.split('\r\n\r\n')[1]!).code).toBe('HEADERS_TOO_LARGE')
  })

  it('a 10 kB path (within the header limit) gets 414 from the server too, and the connection stays usable', async () => {
    const agent = oneConnection()
    const long = await send(agent, 'GET', '/api/' + 'a'.repeat(10 * 1024))
    expect(long.status).toBe(414)
    expect(long.json).toEqual({ message: 'The URL is too long (at most 8 KiB).', code: 'URI_TOO_LONG' })
    const next = await send(agent, 'GET', '/api/health')
    expect(next.status).toBe(200)
    expect(next.localPort).toBe(long.localPort)
    agent.destroy()
  })

  it('headers over 16 KiB get 431 with the contract body, and a new connection answers', async () => {
    const agent = oneConnection()
    const huge = await send(agent, 'GET', '/api/health', { headers: { 'X-Filler': 'b'.repeat(20 * 1024) } })
    expect(huge.status).toBe(431)
    expect(huge.headers.connection).toBe('close')
    expect(huge.json).toEqual({ message: 'The request headers are too large (at most 16 KiB).', code: 'HEADERS_TOO_LARGE' })
    expect((await send(agent, 'GET', '/api/health')).status).toBe(200)
    agent.destroy()
  })

  it('many headers adding up over 16 KiB also get 431 JSON, without a reset', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `X-Many-${i}: ${'c'.repeat(50)}\r\n`).join('')
    const { text, reset } = await rawExchange(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines}\r\n`)
    expect(reset).toBe(false)
    expect(text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
    expect(JSON.parse(text.split('\r\n\r\n')[1]!).code).toBe('HEADERS_TOO_LARGE')
  })
})
