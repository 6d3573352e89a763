import { v4 } from 'uuid'

/**
 * A random UUID. `crypto.randomUUID` exists only in secure contexts (https, localhost); a phone
 * opening the app over plain http on the LAN falls back to the uuid package.
 */
export const newId = (): string => globalThis.crypto?.randomUUID?.() ?? v4()
