import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/**
 * Encrypts secrets at rest (payment provider keys, webhook secrets) with AES-256-GCM.
 * The key is APP_SECRET_KEY (any string; SHA-256 makes it 32 bytes). Stored form:
 * `v1.<iv>.<tag>.<ciphertext>` in base64url. Decryption happens only in the server.
 */
export interface SecretBox {
  seal(plain: string): string
  open(sealed: string): string
}

export function createSecretBox(key: string): SecretBox {
  const k = createHash('sha256').update(key, 'utf8').digest()
  return {
    seal(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', k, iv)
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.')
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.')
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret')
      const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}

/** How a secret is shown in answers: only its last four characters (docs/API.md). */
export const maskSecret = (plain: string): string => `••••${plain.slice(-4)}`
