/**
 * What the every-route walk checks on a screen besides its layout: axe-core's serious and critical
 * violations (axe-core, which @axe-core/playwright brings), and English text left in the Danish
 * interface.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createRequire } from 'node:module'
import type { AxeResults } from 'axe-core'
import type { Page } from 'playwright-core'

const root = resolve(import.meta.dirname, '..')

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe's serious and critical violations on the page, one line each: rule, what it says, where (up
 * to three targets). axe is put into the page once and run there directly: @axe-core/playwright's
 * AxeBuilder injects its 560 kB again on every run (and, out of legacy mode, opens a blank page to
 * merge frames), which made a walk of ~300 checks take minutes. The package stays the source of
 * axe-core's version (its dependency) and of the result types.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // As a script evaluated by the debugger (not a <script> tag), so the app's CSP does not refuse it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }).axe
    return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }))
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const where = v.targets.slice(0, 3).join(' | ')
      const more = v.targets.length > 3 ? ` (+${v.targets.length - 3} more)` : ''
      return `axe ${v.impact} ${v.id}: ${v.help} — ${where}${more}`
    })
}

/** The msgid/msgstr pairs of a .po catalog (plural forms and the header left out). */
function catalog(path: string): { id: string; str: string }[] {
  const po = readFileSync(join(root, path), 'utf8')
  const unquote = (block: string) =>
    [...block.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\')).join('')
  const out: { id: string; str: string }[] = []
  for (const m of po.matchAll(/^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)/gm)) {
    const id = unquote(m[1]!)
    if (id) out.push({ id, str: unquote(m[2]!) })
  }
  return out
}

const words = (text: string) =>
  text
    .replace(/\{\w+\}/g, ' ') // placeholders
    .replace(/\{\w+, (plural|selectordinal|select),/g, ' ') // ICU plural and select heads …
    .replace(/(=\d+|zero|one|two|few|many|other|\w+) \{/g, ' ') // … and their branch keys
    .replace(/<\/?\d+>/g, ' ') // Lingui's component placeholders
    .toLowerCase()
    .match(/\p{L}+/gu) ?? []

/**
 * Words that mark English in a Danish screen: every word of the English source strings of both
 * catalogs (client screens and server messages) that no Danish translation uses, plus English
 * words that never appear in a catalog but do in leaks (zod's built-in messages, React or browser
 * defaults). A word that Danish uses too ("status", "total", "to" = two, "send") is never one.
 */
export function englishMarkers(): Set<string> {
  const entries = [...catalog('client/locales/da.po'), ...catalog('server/i18n/locales/da.po')]
  const danishWords = new Set(entries.flatMap((e) => words(e.str)))
  const english = new Set(entries.filter((e) => e.str && e.str !== e.id).flatMap((e) => words(e.id)))
  const leaks =
    'the your you and with this that from please expected received too big small string characters character must should loading failed invalid required undefined null nan object'.split(
      ' ',
    )
  for (const w of leaks) english.add(w)
  for (const w of danishWords) english.delete(w)
  // Too short to tell (single letters, "e" of "e-mail", units).
  for (const w of english) if (w.length < 2) english.delete(w)
  return english
}

export interface LeakOptions {
  markers: Set<string>
  /** Proper names and demo content shown as they are (people, companies, addresses, product names). */
  allowed: string[]
}

/**
 * English in the visible text of a Danish screen: each text node (and the document title,
 * aria-label, placeholder, title and alt of elements) whose words include a marker. Text inside an
 * element marked `lang` other than Danish (the language picker's "English") and form values (what
 * a person typed) are not the interface's and are skipped.
 */
export async function englishLeaks(page: Page, { markers, allowed }: LeakOptions): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = []
    const skip = (el: Element | null) => {
      if (!el) return true
      const lang = el.closest('[lang]')?.getAttribute('lang') ?? 'da'
      if (!lang.startsWith('da')) return true
      // Code-like identifiers (webhook event names) are not sentences. Notifications are checked
      // like any text: they come in both languages (server/features/notifications).
      if (el.closest('script, style, noscript, template, textarea, code, kbd, samp')) return true
      if (!(el as HTMLElement).checkVisibility?.({ visibilityProperty: true } as never) && !el.closest('.sr-only')) return true
      return false
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim()
      if (text && !skip(n.parentElement)) out.push(text)
    }
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
      if (skip(el)) continue
      for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
        const v = el.getAttribute(attr)?.trim()
        if (v) out.push(`${v} [${attr}]`)
      }
    }
    out.push(`${document.title} [document title]`)
    return { out }
  })
  const leaks = new Set<string>()
  const skip = allowed
  for (const raw of texts.out) {
    // E-mail addresses, also when a line-break opportunity splits them into "name@" and "domain".
    let text = raw.replace(/\S*@\S*/g, ' ')
    for (const a of skip) if (a) text = text.split(a).join(' ')
    const hits = [...new Set(words(text.replace(/\[(aria-label|placeholder|title|alt|document title)\]$/, '')).filter((w) => markers.has(w)))]
    if (hits.length) leaks.add(`english: "${raw.length > 120 ? `${raw.slice(0, 117)}...` : raw}" (${hits.join(', ')})`)
  }
  return [...leaks]
}
