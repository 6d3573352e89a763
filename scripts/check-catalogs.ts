/**
 * Fails when a Lingui catalog is out of date with the source, or when a Danish entry is missing.
 * Runs `lingui extract` into the real catalogs and compares with what was there: a developer who
 * added a string without extracting and translating it gets a red build.
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

if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log(`Catalogs up to date; every Danish entry translated (${files.length} files).`)
