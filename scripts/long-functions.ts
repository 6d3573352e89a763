/**
 * Lists the server's functions longer than a screen (80 lines) outside tests, longest first: a
 * function a reader cannot take in at once, and one that code walks and outline views show as a
 * single block (docs/ARCHITECTURE.md "Modules"). `scripts/long-functions.test.ts` holds the count.
 *
 *   node --import tsx scripts/long-functions.ts
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Longer than this many lines is long. */
export const MAX_LINES = 80

/** Test files and the test harness (server/test/) are not counted. */
const isTest = (path: string) => /\.test\.ts$|\.test-support\.ts$|(^|\/)test-helpers\.ts$|(^|\/)server\/test\//.test(path)

function* serverFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* serverFiles(path)
    else if (entry.name.endsWith('.ts') && !isTest(relative(root, path))) yield path
  }
}

/** The name a reader would look for: the function's own, or the variable, property or call it is given to. */
function nameOf(node: ts.Node): string {
  const own = (node as { name?: ts.Node }).name
  if (own) return own.getText()
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText()
  if (ts.isCallExpression(parent)) return `(given to ${parent.expression.getText().slice(0, 40)})`
  return '(anonymous)'
}

export interface LongFunction {
  file: string
  line: number
  name: string
  lines: number
}

export function longFunctions(dir = join(root, 'server')): LongFunction[] {
  const found: LongFunction[] = []
  for (const path of serverFiles(dir)) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line
        const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1
        if (lines > MAX_LINES) found.push({ file: relative(root, path), line: first + 1, name: nameOf(node), lines })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found.sort((a, b) => b.lines - a.lines)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const found = longFunctions()
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`)
  console.log(`${found.length} functions over ${MAX_LINES} lines`)
}
