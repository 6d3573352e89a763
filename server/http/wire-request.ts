/**
 * Requests that came straight off a socket through Node's HTTP parser (node-server.ts), as opposed
 * to ones the app makes itself (a sync batch's items) or a test hands it (`app.request`). Only for
 * these do the headers settle whether a body follows and how long it is: Node's parser reads
 * exactly Content-Length bytes, and a request with neither Content-Length nor Transfer-Encoding
 * has no body.
 */
const fromWire = new WeakSet<Request>()

export const markFromWire = (request: Request): void => void fromWire.add(request)

/** Whether the headers of this request alone show its body within `maxSize` bytes (false: look at the body). */
export function declaredWithin(request: Request, maxSize: number): boolean {
  if (!fromWire.has(request) || request.headers.has('transfer-encoding')) return false
  const length = request.headers.get('content-length')
  return length === null || (/^\d+$/.test(length) && Number(length) <= maxSize)
}
