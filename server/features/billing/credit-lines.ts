import type { Db } from '../../db/client'
import type { VatRate } from '../../../shared/domain/agreement-parts'
import { invoicesRepository } from './invoices.repository'
import type { LineSource } from './invoicing'

export type LineLeft = Awaited<ReturnType<typeof linesLeft>>[number]

/** What is left to credit on each line of an invoice: its total less the credit notes' lines that credit it. */
export async function linesLeft(db: Db, invoiceId: string) {
  const lines = await invoicesRepository.linesOf(db, invoiceId)
  const credited = new Map<number, number>()
  for (const l of await invoicesRepository.linesOfAll(db, await invoicesRepository.creditNoteIdsOf(db, invoiceId)))
    if (l.creditedPosition !== null) credited.set(l.creditedPosition, (credited.get(l.creditedPosition) ?? 0) + l.totalInclVatOre)
  return lines.map((l) => ({ line: l, left: Math.max(0, l.totalInclVatOre - (credited.get(l.position) ?? 0)) }))
}

/** A credit note's lines (a refund's or a write-off's): `shares` of the invoice's lines, each with the description of the line it credits. */
export const creditNoteLines = (left: LineLeft[], shares: number[]): LineSource[] =>
  left
    .map(({ line }, i) => ({
      type: line.type,
      description: line.description,
      grossOre: shares[i]!,
      vatRate: line.vatRate as VatRate,
      unit: line.unit,
      credits: { position: line.position, articleNumber: line.articleNumber },
    }))
    .filter((l) => l.grossOre > 0)
