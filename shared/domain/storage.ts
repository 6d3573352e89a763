/**
 * Stored bytes as people read them (docs/decisions/0082): decimal units (1 MB = 1,000,000 bytes,
 * as disks and phones count them), at most one decimal below 100 and none from 100 up, per locale:
 * `312 MB`, `1.5 GB` in English, `1,5 GB` in Danish. Between number and unit is a no-break space,
 * so a size never wraps. The server's refusal and the client's meter say the same.
 */
export type StorageLocale = 'en' | 'da'

const NBSP = '\u00a0'
const UNITS = [
  ['GB', 1e9],
  ['MB', 1e6],
  ['kB', 1e3],
] as const

const formats = new Map<string, Intl.NumberFormat>()
function format(value: number, locale: StorageLocale): string {
  const digits = value >= 100 ? 0 : 1
  const key = `${locale}:${digits}`
  let f = formats.get(key)
  if (!f) formats.set(key, (f = new Intl.NumberFormat(locale === 'da' ? 'da-DK' : 'en-GB', { maximumFractionDigits: digits })))
  return f.format(value)
}

export function formatBytes(bytes: number, locale: StorageLocale): string {
  for (const [unit, size] of UNITS) if (bytes >= size) return `${format(bytes / size, locale)}${NBSP}${unit}`
  return `${format(bytes, locale)}${NBSP}${locale === 'da' ? 'byte' : 'bytes'}`
}

/** A value of a message that is a size: formatted in the reader's language where the message is (server/http/error-mapper.ts). */
export interface BytesValue {
  bytes: number
}

const isBytes = (v: unknown): v is BytesValue => typeof v === 'object' && v !== null && typeof (v as BytesValue).bytes === 'number'

/** The values of a message with every size (`{ bytes }`) formatted for the locale; the others as they are. */
export function localizeByteValues<V extends Record<string, unknown> | undefined>(values: V, locale: StorageLocale): V {
  if (!values || !Object.values(values).some(isBytes)) return values
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, isBytes(v) ? formatBytes(v.bytes, locale) : v])) as V
}
