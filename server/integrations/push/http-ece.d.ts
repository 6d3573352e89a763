/** The parts of `http_ece` (RFC 8188 encrypted content-encoding; it ships no types) the push emulator uses. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto'
  interface EceParams {
    version?: 'aes128gcm' | 'aesgcm' | 'aesgcm128'
    privateKey?: ECDH
    authSecret?: string | Buffer
    dh?: string | Buffer
    salt?: string | Buffer
    rs?: number
  }
  export function decrypt(buffer: Buffer, params: EceParams): Buffer
  export function encrypt(buffer: Buffer, params: EceParams): Buffer
}
