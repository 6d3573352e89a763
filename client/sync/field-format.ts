/**
 * How the conflict screen shows a value of a field (see EditField.format): in the user's words,
 * money in kroner, dates as dates, enums by their label, list items as one readable line.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { formatDate, formatDateTime, formatMoney } from '../lib/format'
import type { FieldFormat } from './mutation-kinds'

const empty = msg({ message: '(empty)', comment: 'A field without a value on the conflict screen' })

const isEmpty = (v: unknown) => v === null || v === undefined || v === ''

export const formats = {
  text: ((v, { i18n }) => (isEmpty(v) ? i18n._(empty) : String(v))) satisfies FieldFormat,
  /** Integer øre as kroner. */
  money: ((v, { i18n, locale }) => (typeof v === 'number' ? formatMoney(v, locale) : i18n._(empty))) satisfies FieldFormat,
  /** A calendar date YYYY-MM-DD. */
  date: ((v, { i18n, locale }) => (typeof v === 'string' && v ? formatDate(v, locale, 'long') : i18n._(empty))) satisfies FieldFormat,
  /** An instant or a Copenhagen date-time. */
  dateTime: ((v, { i18n, locale }) => (typeof v === 'string' && v ? formatDateTime(v, locale) : i18n._(empty))) satisfies FieldFormat,
  /** A Copenhagen local time `YYYY-MM-DDTHH:mm`, as it stands (no time zone can move it). */
  localDateTime: ((v, { i18n, locale }) => {
    const m = typeof v === 'string' ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(v) : null
    return m ? `${formatDate(m[1]!, locale, 'long')} ${m[2]}` : i18n._(empty)
  }) satisfies FieldFormat,
  /** Long text (a message body, maybe HTML) as a short plain excerpt. */
  excerpt: ((v, { i18n }) => {
    const text =
      typeof v === 'string' ?
        v
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
      : ''
    return (
      !text ? i18n._(empty)
      : text.length > 160 ? `${text.slice(0, 159)}…`
      : text
    )
  }) satisfies FieldFormat,
  yesNo: ((v, { i18n }) => i18n._(v ? msg`Yes` : msg`No`)) satisfies FieldFormat,
  /** A value of an enum, by its label. */
  oneOf:
    (labels: Readonly<Record<string, MessageDescriptor>>): FieldFormat =>
    (v, { i18n }) => {
      if (isEmpty(v)) return i18n._(empty)
      const label = labels[String(v)]
      return label ? i18n._(label) : String(v)
    },
}
