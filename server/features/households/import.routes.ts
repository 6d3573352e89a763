import { z } from '@hono/zod-openapi'
import { ImportQuery, ImportReport } from '../../../shared/contract/household-import'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'
import { messages as m } from '../../../shared/i18n-messages'
import { IdParam } from '../../http/item-routes'
import { bearer, errorResponses as e, json, router, writeHeaders } from '../../http/openapi'
import type { RateLimiter } from '../../http/rate-limit'
import { route } from '../../http/route'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { requireActor } from '../../access/actor'
import { writeStep } from '../../http/write-step'
import { sheetMessages } from './import-sheet'
import type { HouseholdImportService } from './import.service'

const tags = ['Households']
const WHO = 'The association’s chairman, administrator and accountant, and the super admin; other staff get 403, anyone else 404 (docs/decisions/0092).'
const scope = { of: 'company', roles: companyAdminStaffRoles } as const
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const fileField = z.custom<File>((v) => v instanceof File, { error: sheetMessages.unreadable.id }).meta({ type: 'string', format: 'binary' })

const template = route({
  rules: { access: 'signed-in', data: 'read', scope },
  method: 'get',
  path: '/companies/{id}/import/template',
  tags,
  security: bearer,
  summary: 'The household import’s template: an xlsx with the columns in the caller’s language and an example row',
  description: WHO,
  request: { params: IdParam },
  responses: {
    200: {
      description: 'The template (`Content-Disposition: attachment`)',
      content: { [XLSX_TYPE]: { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
    },
    401: e[401],
    403: e[403],
    404: e[404],
  },
})

const importFile = route({
  // The address register is asked before the write (`prepare`), never under the write lock (docs/decisions/0009, 0093).
  rules: {
    access: 'signed-in',
    data: 'own-steps',
    calls: 'address-register',
    unbatched: true,
    body: 'attachment',
    scope,
    syncs: ['household', 'address', 'agreement', 'company'],
  },
  method: 'post',
  path: '/companies/{id}/import',
  tags,
  security: bearer,
  summary:
    'Import households and residents from a spreadsheet (multipart field `file`: xlsx, or CSV with `;` or `,`, at most 5 MB and 5000 rows; one row a resident of a household). ' +
    '`dryRun=true` reports each row’s outcome and every problem by row and column, writing nothing. Otherwise one transaction: nothing is written while any row has a problem ' +
    '(400 VALIDATION_FAILED with the problems as issues `rows.{row}.{column}`), unless `onlyValid=true`. Households are matched by external number, else by address; residents by e-mail within the household, ' +
    'so the same file imported again changes nothing. New residents become users who are not invited (staff invite them afterwards). ' +
    'A household whose payer’s row has amounts (rent, heating, water) gets an agreement in CREATED for the payer — monthly, with those parts, the association’s active payment provider and ' +
    'the first payment date `startPaymentDate` — unless an agreement runs at its address already; nobody is invited or told (422 when there is no active provider). ' +
    'New addresses are looked up in the address register before the write (503 when it cannot answer). Rate limited.',
  description: WHO,
  request: {
    params: IdParam,
    query: ImportQuery,
    headers: writeHeaders,
    body: { content: { 'multipart/form-data': { schema: z.object({ file: fileField }) } }, required: true },
  },
  responses: {
    200: { description: 'What each row does (or did)', ...json(ImportReport) },
    400: e[400],
    401: e[401],
    403: e[403],
    404: e[404],
    413: e[413],
    422: e[422],
    429: e[429],
    503: { description: 'The address register could not be reached (`PROVIDER_UNAVAILABLE`)', ...json(z.object({ message: z.string(), code: z.string() })) },
  },
})

export const householdImportRoutes = (imports: HouseholdImportService, limiter: RateLimiter) =>
  router()
    .openapi(template, async (c) => {
      const locale = c.var.locale
      const bytes = await imports.template(requireActor(c.var.actor), c.req.valid('param').id, locale)
      return storedFileAnswer(c, { contentType: XLSX_TYPE, bytes, name: locale === 'da' ? 'husstande-skabelon.xlsx' : 'households-template.xlsx' }) as never
    })
    .openapi(importFile, async (c) => {
      const actor = requireActor(c.var.actor)
      limiter.hit(`user:${actor.userId}`)
      const form = await c.req.parseBody()
      const file = await uploadedFile(c, form, m.documentFileRequired.id)
      const { dryRun, onlyValid, startPaymentDate } = c.req.valid('query')
      // First the file is read and its new addresses looked up, outside the write lock; then the one write transaction.
      const prepared = await imports.prepare(actor, c.req.valid('param').id, file.bytes)
      const options = { dryRun: dryRun === 'true', onlyValid: onlyValid === 'true', startPaymentDate }
      return (await writeStep(c, async () => c.json(await imports.run(actor, prepared, options, c.var.locale), 200))) as never
    })
