import { COPENHAGEN } from '../../../shared/domain/copenhagen'
import type { Locale } from '../../lib/format'

const formats = new Map<string, Intl.DateTimeFormat>()

/**
 * A meeting's time as the language writes it, in Copenhagen: "fredag den 12. marts 2027 kl. 19.00",
 * "Friday, 12 March 2027 at 19:00" (the e-mails say it the same way, server/features/assemblies/assembly-email.ts).
 * `short`: "12.03.2027 19.00" / "12/03/2027, 19:00" for lists.
 */
export function meetingTime(iso: string, locale: Locale, style: 'full' | 'short' = 'full'): string {
  const key = `${locale}:${style}`
  let format = formats.get(key)
  if (!format)
    formats.set(
      key,
      (format = new Intl.DateTimeFormat(locale === 'da' ? 'da-DK' : 'en-GB', {
        dateStyle: style === 'full' ? 'full' : 'medium',
        timeStyle: 'short',
        timeZone: COPENHAGEN,
      })),
    )
  return format.format(new Date(iso))
}
