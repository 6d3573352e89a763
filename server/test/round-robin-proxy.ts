/**
 * A load balancer in front of several server instances, for the multi-instance test: requests go
 * round-robin to the upstream ports, as nginx's default `upstream` does. Like nginx's
 * `proxy_next_upstream error`, a request an instance refused to connect (it is dead) goes to the
 * next one, whatever its method; a GET whose connection broke mid-way goes to the next one too,
 * and any other request that broke is answered 502, because it may have taken effect (the client
 * repeats it with its Idempotency-Key).
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'

export interface Balancer {
  url: string
  /** Requests each upstream answered, by port. */
  answered: Map<number, number>
  close(): Promise<void>
}

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

function forward(port: number, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const out = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, connection: 'close' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    out.on('error', reject)
    out.end(body)
  })
}

export async function roundRobinProxy(ports: number[]): Promise<Balancer> {
  let next = 0
  const answered = new Map<number, number>(ports.map((p) => [p, 0]))
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks)
        const first = next++
        for (let k = 0; k < ports.length; k++) {
          const port = ports[(first + k) % ports.length]!
          try {
            const answer = await forward(port, req.method!, req.url!, req.headers, body)
            answered.set(port, answered.get(port)! + 1)
            const headers = { ...answer.headers }
            delete headers['transfer-encoding']
            delete headers.connection
            res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) }).end(answer.body)
            return
          } catch (err) {
            const refused = (err as NodeJS.ErrnoException).code === 'ECONNREFUSED'
            if (!refused && req.method !== 'GET') break
          }
        }
        res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway')
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://localhost:${port}`,
    answered,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
