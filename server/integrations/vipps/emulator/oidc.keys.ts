import { generateKeyPairSync, randomUUID, sign, type JsonWebKey, type KeyObject } from 'node:crypto'

/**
 * The RS256 key that signs the emulator's id_tokens, generated on first use and never stored:
 * id_tokens are checked right after sign-in, so a new key after a restart costs nothing.
 * The public half is published as a JWKS, as Vipps Login does (jwks_uri).
 */
export interface SigningKey {
  kid: string
  privateKey: KeyObject
  publicJwk: JsonWebKey & { kid: string; alg: 'RS256'; use: 'sig' }
}

export function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = randomUUID()
  return { kid, privateKey, publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } }
}

const b64url = (value: string) => Buffer.from(value, 'utf8').toString('base64url')

/** A compact JWS (RFC 7515) with RS256 = RSASSA-PKCS1-v1_5 over SHA-256 (RFC 7518 §3.3). */
export function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const signingInput = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.kid }))}.${b64url(JSON.stringify(claims))}`
  return `${signingInput}.${sign('sha256', Buffer.from(signingInput), key.privateKey).toString('base64url')}`
}
