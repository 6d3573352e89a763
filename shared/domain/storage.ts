/**
 * The one size format of the product (docs/decisions/0082): a file's size in a list, the storage
 * meter and the server's refusal when an association's storage is full all say the same. In the
 * user's language, in steps of 1024 as file managers show them (as the upload limits count, 20 MB
 * = 20 × 1024 × 1024 bytes): "44 bytes" (da "44 B"), "820 kB", "3,4 MB", "1 GB".
 */
export type StorageLocale = 'en' | 'da'

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const

const formats = new Map<string, Intl.NumberFormat>()

export function formatBytes(bytes: number, locale: StorageLocale | string): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  const key = `${locale}:${unit}`
  let f = formats.get(key)
  if (!f)
    formats.set(
      key,
      (f = new Intl.NumberFormat(locale === 'da' ? 'da-DK' : 'en-GB', {
        style: 'unit',
        unit: UNITS[unit],
        // English bytes in words ("44 bytes": its short form says "44 byte"); Danish "44 B" (its long form is English); larger units short.
        unitDisplay: unit === 0 && locale !== 'da' ? 'long' : 'short',
        maximumFractionDigits: unit === 0 ? 0 : 1,
      })),
    )
  return f.format(value)
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
