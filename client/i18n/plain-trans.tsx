import type { ReactNode } from 'react'
import { Trans as LinguiTrans, type TransProps } from '@lingui/react'

/**
 * Lingui's <Trans>, with every interpolated text kept as text.
 *
 * Lingui formats a translation first and then reads `<0>…</0>`-style tags out of the result to put
 * its components back. A value such as a person's name is pasted in before that step, so a user
 * named `<b>Bo</b>` or `<0>x</0>` was cut up into elements (and logged console errors). Here every
 * string value that could be read as a tag is handed to Lingui as an element instead: it is put in
 * after the tags are read, and React renders it as plain text. Numbers and other strings (plural
 * and select keys) are left as they are.
 *
 * The macros' `<Trans>` compiles to this component (lingui.config.ts `runtimeConfigModule`), so
 * every translated sentence in the client gets it without each screen doing anything.
 */
export function Trans(props: TransProps): ReactNode {
  return <LinguiTrans {...props} values={plainValues(props.values)} />
}

/** Could Lingui's element parser read part of this text as a tag (`<b>`, `</b>`, `<0/>`)? */
const looksLikeTag = /<\/?[a-zA-Z0-9]+\/?>/

export function plainValues(values: TransProps['values']): TransProps['values'] {
  if (!values) return values
  let out: Record<string, unknown> | undefined
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string' && looksLikeTag.test(value)) (out ??= { ...values })[key] = <>{value}</>
  }
  return (out ?? values) as TransProps['values']
}
