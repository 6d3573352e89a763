import { t, type Lang } from './emulator.i18n'

/**
 * The frame of the emulator's HTML pages: server-rendered, no script (the product's CSP allows
 * none inline), one small inline style (allowed), in the spirit of the Vipps MobilePay landing page.
 */
export const esc = (value: string): string =>
  value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch)

const style = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f1ef;color:#1b1b1b}
header{background:#ff5b24;color:#fff;padding:.75rem 1rem;display:flex;justify-content:space-between;align-items:center}
header strong{font-size:1.1rem;letter-spacing:.01em}
header a{color:#fff}
main{max-width:26rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border-radius:1rem;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.35rem;margin:0 0 .5rem}
h2{font-size:1rem;margin:1.25rem 0 .25rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0}
dt{color:#666}dd{margin:0;font-weight:600}
label{display:block;font-weight:600;margin-top:1rem}
input[type=tel]{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #bbb;border-radius:.5rem;margin-top:.25rem}
.hint{color:#666;font-size:.875rem;margin:.25rem 0 0}
.error{color:#b00020;font-weight:600}
.actions{display:flex;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;border-radius:2rem;padding:.7rem 1.25rem;cursor:pointer;border:2px solid #ff5b24}
button.primary{background:#ff5b24;color:#fff;flex:1}
button.secondary{background:#fff;color:#1b1b1b;flex:1}
button.link{border:0;background:none;color:#1b1b1b;text-decoration:underline;padding:.5rem 0}
ul.users{list-style:none;padding:0;margin:.5rem 0 0;display:grid;gap:.5rem}
ul.users button{width:100%;display:flex;justify-content:space-between;background:#fff;color:#1b1b1b;border:1px solid #ccc;border-radius:.75rem}
ul.users button:hover,ul.users button:focus{border-color:#ff5b24}
.note{color:#666;font-size:.8rem;margin-top:1.5rem}
`

export function renderPage(input: { lang: Lang; title: string; body: string; switchHref?: string }): string {
  const { lang, title, body, switchHref } = input
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)} – ${esc(t(lang, 'brand'))}</title>
<style>${style}</style>
</head>
<body>
<header><strong>${esc(t(lang, 'brand'))}</strong>${switchHref ? `<a href="${esc(switchHref)}" hreflang="${lang === 'da' ? 'en' : 'da'}">${esc(t(lang, 'switchLanguage'))}</a>` : ''}</header>
<main>
${body}
<p class="note">${esc(t(lang, 'emulatorNote'))}</p>
</main>
</body>
</html>`
}

/** A page with a heading, a sentence and, when given, a link back. */
export function renderMessagePage(lang: Lang, title: string, text: string, back?: { href: string; label: string }): string {
  const link = back ? `<p><a href="${esc(back.href)}">${esc(back.label)}</a></p>` : ''
  return renderPage({ lang, title, body: `<h1>${esc(title)}</h1>\n<p>${esc(text)}</p>\n${link}` })
}

/**
 * The same page in the other language (the header's language link). Query-only, so it resolves
 * against the page's own address wherever the emulator is mounted (Hono's mount strips the prefix
 * from the path the emulator sees).
 */
export function otherLangHref(query: Record<string, string>, lang: Lang): string {
  return `?${new URLSearchParams({ ...query, lang: lang === 'da' ? 'en' : 'da' }).toString()}`
}
