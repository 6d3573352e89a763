import type { Db } from '../../db/client'
import type { CompaniesService } from '../companies'
import type { NoticesService } from '../notifications'
import { agreementsRepository as repo, type AgreementRow } from './agreements.repository'

export type AgreementNotices = ReturnType<typeof createAgreementNotices>

/** What an agreement's people are told (in-app and by e-mail): the member that one awaits them, the staff how the member answered. */
export function createAgreementNotices(deps: { db: Db; companies: CompaniesService; notices: NoticesService }) {
  const { db, companies, notices } = deps

  async function memberAwaiting(row: AgreementRow) {
    const member = (await repo.member(db, row.memberUserId))!
    const company = (await companies.byId(row.companyId))!
    await notices.tell(member.id, {
      type: 'info',
      title: /*i18n*/ { id: 'An agreement awaits your acceptance' },
      message: /*i18n*/ { id: '{association} has created agreement {externalId} for {amount}. Open it to accept it with Vipps MobilePay or to reject it.' },
      values: { association: company.name, externalId: String(row.externalSeq), amount: { ore: row.priceOre } },
      actionUrl: `/agreements/${row.id}`,
      actionText: /*i18n*/ { id: 'Open agreement' },
    })
  }

  async function staff(row: AgreementRow, outcome: 'ACCEPTED' | 'REJECTED' | 'EXPIRED') {
    const member = (await repo.member(db, row.memberUserId))!
    const values = { member: member.fullName, externalId: String(row.externalSeq) }
    const audience = new Set([...(await repo.managersOf(db, row.companyId)), ...(row.createdByUserId ? [row.createdByUserId] : [])])
    audience.delete(row.memberUserId)
    const text = {
      ACCEPTED: {
        type: 'success' as const,
        title: /*i18n*/ { id: 'Agreement {externalId} was accepted' },
        message: /*i18n*/ { id: '{member} accepted agreement {externalId} in Vipps MobilePay. Payments will be collected.' },
      },
      REJECTED: {
        type: 'warning' as const,
        title: /*i18n*/ { id: 'Agreement {externalId} was rejected' },
        message: /*i18n*/ { id: '{member} rejected agreement {externalId}.' },
      },
      EXPIRED: {
        type: 'warning' as const,
        title: /*i18n*/ { id: 'Agreement {externalId} expired' },
        message: /*i18n*/ { id: '{member} did not approve agreement {externalId} in Vipps MobilePay in time.' },
      },
    }[outcome]
    for (const userId of audience)
      await notices.tell(userId, { ...text, values, actionUrl: `/agreements/${row.id}`, actionText: /*i18n*/ { id: 'Open agreement' } })
  }

  return { memberAwaiting, staff }
}
