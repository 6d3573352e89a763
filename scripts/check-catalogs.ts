/**
 * Fails when a Lingui catalog is out of date with the source, or when a Danish entry is missing.
 * Runs `lingui extract` into the real catalogs and compares with what was there: a developer who
 * added a string without extracting and translating it gets a red build. Also refuses a Danish
 * sentence that would end in "kr.." (an amount's own full stop ends it).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const catalogs = ['client/locales', 'server/i18n/locales']

/** The catalog's entries as `msgid → msgstr`, ignoring order and comments. */
function entries(po: string): Map<string, string> {
  return new Map([...po.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/gm)].map((m) => [m[1]!, m[2]!]))
}
const sameEntries = (a: string, b: string) => {
  const x = entries(a)
  const y = entries(b)
  return x.size === y.size && [...x].every(([k, v]) => y.get(k) === v)
}
const files = catalogs.flatMap((dir) => ['en', 'da'].map((l) => `${dir}/${l}.po`))
const before = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]))

execFileSync('npx', ['lingui', 'extract', '--clean'], { stdio: 'ignore' })

const problems: string[] = []
for (const file of files) {
  const after = readFileSync(file, 'utf8')
  if (!sameEntries(after, before.get(file)!)) problems.push(`${file} is out of date: run "npm run i18n:extract" and translate the new entries`)
  writeFileSync(file, before.get(file)!)
}

for (const dir of catalogs) {
  const po = readFileSync(`${dir}/da.po`, 'utf8')
  const missing = [...po.matchAll(/msgid "((?:[^"\\]|\\.)+)"\nmsgstr ""\n/g)].map((m) => m[1])
  for (const id of missing) problems.push(`${dir}/da.po has no Danish for: ${id}`)
}

// One wording per message (docs/decisions/0084): what the screen and the server both say reads the same in Danish.
const [client, server] = catalogs.map((dir) => entries(readFileSync(`${dir}/da.po`, 'utf8')))
for (const [id, danish] of client!) {
  const other = server!.get(id)
  if (id && other !== undefined && other !== danish) problems.push(`"${id}" is "${danish}" on the screen but "${other}" from the server: use one wording`)
}

// An amount reads "4.950,50 kr." in Danish (shared/domain/money.ts): a sentence that ends on one
// takes no full stop of its own, or it would read "kr..". An amount is a placeholder named for one,
// or a positional one whose extracted comment shows it formatted as money.
const MONEY_NAME = /amount|price|total|deposit|fee|balance|refund|sum|kroner/i
for (const dir of catalogs) {
  const po = readFileSync(`${dir}/da.po`, 'utf8')
  for (const block of po.split('\n\n')) {
    const text = /^msgstr "((?:[^"\\]|\\.)*)"$/m.exec(block)?.[1] ?? ''
    for (const [, name] of text.matchAll(/\{(\w+)\}\./g)) {
      const positionalMoney = /^\d+$/.test(name!) && new RegExp(`placeholder \\{${name}\\}: [^\\n]*(formatMoney|formatKroner|money)`).test(block)
      if (MONEY_NAME.test(name!) || positionalMoney) problems.push(`${dir}/da.po: "${text}" would read "kr.." — leave out the full stop after {${name}}`)
    }
  }
}

if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log(`Catalogs up to date; every Danish entry translated (${files.length} files).`)
