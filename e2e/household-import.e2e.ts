/**
 * The household import (docs/PRODUCT.md "Importing households", decision 0092): the administrator
 * (English) opens the import from the households list, checks a CSV whose third row has a date
 * that does not exist, sees each row's outcome and the problem by row and column, and imports only
 * the valid rows; the chairman (Danish) sees the same dry run in Danish. Every screen is axe-clean
 * and fits 375 px (screenshots under test-results/).
 */
import { describe, expect, it } from 'vitest'
import { danish } from './harness'
import { checkScreen, journeySuite, openFromSidebar, signIn } from './journeys'

const { journey, serverRows } = journeySuite('household-import', 92)

const ADMIN = 'admin@solgaarden.dk' // English
const CHAIRMAN = 'formand@solgaarden.dk' // Danish

const csv = (header: string) =>
  Buffer.from(
    '\uFEFF' +
      [
        header,
        'A-1;Dronningensgade;70;1;tv;2620;Albertslund;Lejlighed;74,5;1,25;Karen Holm;karen.holm@example.dk;01-02-2024;Ejer;Ja',
        'A-1;Dronningensgade;70;1;tv;2620;Albertslund;;;;Jens Holm;jens.holm@example.dk;31-02-2024;Ejer;Nej',
        'A-2;Lærkevej;78;3;tv;2620;Albertslund;Lejlighed;1.102,50;0,875;Mette Lund;mette.lund@example.dk;15-08-2023;Lejer;Ja',
      ].join('\r\n'),
  )
const DANISH_HEADER = 'Eksternt nr.;Adresse;Nummer;Etage;Side;Postnr;By;Type;Areal m²;Fordelingstal;Beboer;E-mail;Indflytning;Ejer/lejer;Betaler'

describe('household import', () => {
  it('the administrator checks a file, sees the problem by row and column, and imports only the valid rows', async () => {
    await journey('import-en', async (_context, page) => {
      await signIn(page, ADMIN)
      await openFromSidebar(page, 'Households')
      await page.getByRole('link', { name: 'Import from a spreadsheet' }).click()
      await page.getByRole('heading', { level: 1, name: 'Import households' }).waitFor()
      await page.getByLabel('Spreadsheet').setInputFiles({ name: 'husstande.csv', mimeType: 'text/csv', buffer: csv(DANISH_HEADER) })
      await page.getByRole('button', { name: 'Check the file' }).click()
      const problems = page.getByRole('table', { name: 'Problems by row and column' })
      await problems.waitFor()
      expect(await problems.innerText()).toContain('Move-in date')
      expect(await problems.innerText()).toContain('“31-02-2024” is not a date')
      await checkScreen(page, 'household-import-dry-run-en')
      expect(serverRows('SELECT * FROM household_residents WHERE full_name = ?', 'Karen Holm')).toHaveLength(0)
      await page.getByRole('button', { name: 'Import only the valid rows' }).click()
      await page.getByRole('heading', { level: 2, name: 'Imported' }).waitFor()
      await expect.poll(() => serverRows('SELECT * FROM household_residents WHERE full_name IN (?, ?)', 'Karen Holm', 'Mette Lund').length).toBe(2)
      expect(serverRows('SELECT * FROM household_residents WHERE full_name = ?', 'Jens Holm')).toHaveLength(0)
      // The confirmation toast is closed first: checked while it fades in, its colours are half-way.
      await page.locator('.toast-close').click()
      await page.locator('.toast').waitFor({ state: 'detached' })
      await checkScreen(page, 'household-import-done-en')
    })
  })

  it('the chairman sees the dry run in Danish', async () => {
    await journey('import-da', async (_context, page) => {
      await signIn(page, CHAIRMAN)
      await openFromSidebar(page, danish('Households'))
      await page.getByRole('link', { name: danish('Import from a spreadsheet') }).click()
      await page.getByRole('heading', { level: 1, name: danish('Import households') }).waitFor()
      await page.getByLabel(danish('Spreadsheet')).setInputFiles({ name: 'husstande.csv', mimeType: 'text/csv', buffer: csv(DANISH_HEADER) })
      await page.getByRole('button', { name: danish('Check the file') }).click()
      const problems = page.getByRole('table', { name: danish('Problems by row and column') })
      await problems.waitFor()
      expect(await problems.innerText()).toContain('Indflytning')
      expect(await problems.innerText()).toContain('er ikke en dato')
      await checkScreen(page, 'household-import-dry-run-da')
    })
  })
})
