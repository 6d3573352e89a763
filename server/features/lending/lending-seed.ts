import type { Db } from '../../db/client'
import { newId } from '../../lib/ids'
import { lendingItems } from '../../db/schema/lending'

/**
 * The demo's lending (docs/decisions/0064-lending.md): the association Solgården lends a drill with a 200 kr deposit
 * and a ladder without one, both to pick up from the caretaker's workshop.
 */
export async function seedDemoLending(db: Db, companyId: string, companyName: string, now: string): Promise<void> {
  const base = {
    companyId,
    lenderKind: 'ASSOCIATION' as const,
    lenderUserId: null,
    lenderName: companyName,
    location: 'Viceværtens værksted, kælderen i nr. 12',
  }
  await db
    .insert(lendingItems)
    .values([
      {
        ...base,
        id: newId(),
        title: 'Boremaskine',
        description: 'Bosch slagboremaskine, 18 V, med to batterier og et sæt bor.',
        rules: 'Lades op og rengøres efter brug. Knækkede bor erstattes.',
        depositOre: 20_000,
        createdAt: now,
        updatedAt: now,
      },
      {
        ...base,
        id: newId(),
        title: 'Stige',
        description: 'Aluminiumsstige, 3 × 8 trin, op til 5 meter.',
        rules: 'Bruges ikke i blæsevejr. Stilles tilbage i værkstedet.',
        depositOre: null,
        createdAt: now,
        updatedAt: now,
      },
    ])
    .run()
}
