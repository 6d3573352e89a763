import type { Db } from '../../db/client'
import { articles, specialists } from '../../db/schema/knowledge'
import { newId } from '../../lib/ids'
import { sanitizeHtml } from '../../lib/sanitize-html'
import { htmlText } from '../../../shared/contract/articles'
import { documentGrams } from '../../../shared/domain/search'
import { articlesRepository } from './articles.repository'

/**
 * The knowledge bank's demo content (decision 0065): the platform's two guides in
 * English and Danish, Solgården's article about the laundry room and three Solgården specialists.
 * Written in the demo seed's transaction (server/db/seed.ts), only with the demo agreements.
 */
const platformArticles: { language: 'en' | 'da'; title: string; tags: string[]; body: string }[] = [
  {
    language: 'en',
    title: 'How Vipps MobilePay agreements work',
    tags: ['vipps', 'payments', 'agreements'],
    body: `<p>Your association collects its recurring charges — the housing charge, on-account heating and water — through a <b>Vipps MobilePay agreement</b>. The administration creates the agreement with its price and payment period; nothing is charged before you accept it.</p>
<p><b>Accepting.</b> Open the agreement in Boligkasse and choose to accept it. You are sent to Vipps MobilePay to approve it; until you have, it says <i>pending</i>. When Vipps has approved it, the agreement is <i>running</i> and the charges are collected on their due dates. If you do not approve it in time, it expires and the administration can send you a new one.</p>
<p><b>Charges.</b> Each period gets one charge and one invoice with a line per part (for example housing charge, heating, water). You see the charge in Vipps MobilePay a few days before it is due and can follow it under Invoices.</p>
<p><b>Changes and termination.</b> A price change is sent to Vipps for you, and you are told. When you move out, the administration terminates the agreement, with a last payment where one is due; after the termination date no further charges are made.</p>
<p>Questions about an amount? Write to the board under Messages.</p>`,
  },
  {
    language: 'da',
    title: 'Sådan fungerer aftaler med Vipps MobilePay',
    tags: ['vipps', 'betaling', 'aftaler'],
    body: `<p>Din forening opkræver de faste beløb — boligafgift, aconto varme og vand — gennem en <b>aftale med Vipps MobilePay</b>. Administrationen opretter aftalen med pris og betalingsperiode; der bliver ikke trukket noget, før du har accepteret den.</p>
<p><b>Accept.</b> Åbn aftalen i Boligkasse og vælg at acceptere den. Du sendes videre til Vipps MobilePay for at godkende den; indtil da står den som <i>afventer</i>. Når Vipps har godkendt den, er aftalen <i>aktiv</i>, og beløbene trækkes på forfaldsdagene. Godkender du den ikke i tide, udløber den, og administrationen kan sende dig en ny.</p>
<p><b>Opkrævninger.</b> Hver periode giver én opkrævning og én faktura med en linje for hver del (fx boligafgift, varme, vand). Du ser opkrævningen i Vipps MobilePay nogle dage før forfald og kan følge den under Fakturaer.</p>
<p><b>Ændringer og opsigelse.</b> En prisændring sendes til Vipps for dig, og du får besked. Når du flytter, opsiger administrationen aftalen, med en sidste betaling hvis der skal betales en; efter opsigelsesdatoen trækkes der ikke mere.</p>
<p>Spørgsmål til et beløb? Skriv til bestyrelsen under Beskeder.</p>`,
  },
  {
    language: 'en',
    title: 'The heating-and-water period',
    tags: ['heating', 'water', 'statement'],
    body: `<p>Heating and water are paid <b>on account</b>: a fixed amount with each payment, settled once a year against what your home really used. The year the settlement covers is the association's <b>heating-and-water period</b>, for example 1 June to 31 May.</p>
<p>At the end of the period the meters are read. The association's statement then compares your on-account payments with your share of the real costs: if you paid too much, you get the difference back; if you paid too little, an extra charge follows.</p>
<p>The board or administration sets the period's start and end dates (day and month) under the association's settings; the statistics' "Heating &amp; water period" shows the running period, or the last one completed.</p>
<p>Tip: give the administration access to the meters around the reading date, and tell them when you move in or out so the reading is split correctly.</p>`,
  },
  {
    language: 'da',
    title: 'Varme- og vandperioden',
    tags: ['varme', 'vand', 'regnskab'],
    body: `<p>Varme og vand betales <b>aconto</b>: et fast beløb ved hver betaling, som gøres op én gang om året mod det, din bolig faktisk har brugt. Det år, opgørelsen dækker, er foreningens <b>varme- og vandperiode</b>, fx 1. juni til 31. maj.</p>
<p>Når perioden slutter, aflæses målerne. Foreningens varmeregnskab sammenholder derefter dine acontobetalinger med din andel af de faktiske udgifter: har du betalt for meget, får du forskellen tilbage; har du betalt for lidt, kommer der en ekstra opkrævning.</p>
<p>Bestyrelsen eller administrationen sætter periodens start- og slutdato (dag og måned) under foreningens indstillinger; statistikkens "Varme- og vandperiode" viser den løbende periode eller den senest afsluttede.</p>
<p>Godt råd: giv adgang til målerne omkring aflæsningsdagen, og sig til, når du flytter ind eller ud, så aflæsningen deles rigtigt.</p>`,
  },
]

const laundry = {
  language: 'da' as const,
  title: 'Vaskeriet',
  tags: ['vaskeri', 'husorden'],
  body: `<p>Vaskeriet ligger i kælderen under opgang 3 og er åbent hver dag kl. 7–21.</p>
<ul><li>Book en tid på tavlen ved døren; en tid er to timer.</li><li>Tøm filteret i tørretumbleren efter brug, og tør sæbeskuffen af.</li><li>Glemt tøj lægges i kurven ved vasken og går til genbrug efter en måned.</li></ul>
<p>Er en maskine i stykker, så skriv til bestyrelsen under Beskeder — vi ringer til vores vvs'er eller elektriker.</p>`,
}

export async function seedKnowledgeDemo(
  db: Db,
  at: string,
  mainCompanyId: string,
  authors: { superAdmin: { id: string; name: string }; admin: { id: string; name: string } },
) {
  const row = (a: { language: 'en' | 'da'; title: string; tags: string[]; body: string }, companyId: string | null, author: { id: string; name: string }) => {
    const body = sanitizeHtml(a.body)
    return {
      id: newId(),
      companyId,
      language: a.language,
      title: a.title,
      body,
      bodyText: htmlText(body),
      tags: a.tags.join(' '),
      authorUserId: author.id,
      authorName: author.name,
      createdAt: at,
      updatedAt: at,
    }
  }
  const rows = [...platformArticles.map((a) => row(a, null, authors.superAdmin)), row(laundry, mainCompanyId, authors.admin)]
  await db.insert(articles).values(rows).run()
  // Their search grams, as the articles service writes them (decision 0085).
  for (const r of rows) await articlesRepository.writeGrams(db, r.id, r.companyId, documentGrams({ title: r.title, tags: r.tags.split(' '), text: r.bodyText }))
  const specialist = (s: Omit<typeof specialists.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>) => ({
    id: newId(),
    companyId: mainCompanyId,
    createdAt: at,
    updatedAt: at,
    ...s,
  })
  await db
    .insert(specialists)
    .values([
      specialist({
        kind: 'PLUMBER',
        name: 'Henrik Mortensen',
        companyName: 'Mortensens VVS ApS',
        phone: '+45 33 12 45 67',
        email: 'kontakt@mortensens-vvs.dk',
        website: 'https://www.mortensens-vvs.dk',
        address: 'Valby Langgade 112, 2500 Valby',
        notes: 'Døgnvagt ved vandskade: ring altid, også om natten. Foreningens kundenummer: 4471.',
      }),
      specialist({
        kind: 'ELECTRICIAN',
        name: 'Camilla Krogh',
        companyName: 'Krogh El ApS',
        phone: '+45 40 55 21 90',
        email: 'camilla@krogh-el.dk',
        website: null,
        address: null,
        notes: 'Vaskeriets maskiner og lyset i opgangene. Hverdage kl. 7–15.',
      }),
      specialist({
        kind: 'ADMINISTRATOR',
        name: 'Boligadministration Nord',
        companyName: 'Boligadministration Nord A/S',
        phone: '+45 70 20 30 40',
        email: 'solgaarden@bolignord.dk',
        website: 'https://www.bolignord.dk',
        address: 'Strandboulevarden 40, 2100 København Ø',
        notes: 'Ejerskifte, overdragelse af andele og restancer.',
      }),
    ])
    .run()
}
