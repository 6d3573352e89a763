/**
 * A self-contained, human-readable page for the OpenAPI document at /api/docs. The usual viewers
 * load their code from a CDN, which a machine without internet (and our CSP) does not allow, so
 * this page is rendered on the server with no script at all.
 */
type Json = Record<string, unknown>

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

function schemaBlock(schema: unknown): string {
  if (!schema) return ''
  return `<pre>${esc(JSON.stringify(schema, null, 2))}</pre>`
}

export function renderDocsPage(doc: Json): string {
  const info = (doc.info ?? {}) as Json
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>
  const byTag = new Map<string, string[]>()
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = ((op.tags as string[] | undefined) ?? ['Other'])[0]!
      const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined
      const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
        .map(([status, r]) => `<li><code>${esc(status)}</code> ${esc(r.description)}</li>`)
        .join('')
      const params = ((op.parameters as Json[] | undefined) ?? [])
        .map(
          (p) =>
            `<li><code>${esc(p.in)}</code> <code>${esc(p.name)}</code>${p.required ? ' (required)' : ''} ${esc((p.schema as Json | undefined)?.description ?? p.description ?? '')}</li>`,
        )
        .join('')
      const html = `<details><summary><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code> — ${esc(op.summary)}</summary>
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${body ? `<h4>Request body</h4>${schemaBlock(body.schema)}` : ''}<h4>Responses</h4><ul>${responses}</ul></details>`
      byTag.set(tag, [...(byTag.get(tag) ?? []), html])
    }
  }
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, unknown>
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(info.title)} – API</title><style>
body{font-family:system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1f2937}
details{border:1px solid #e5e7eb;border-radius:6px;margin:.4rem 0;padding:.4rem .7rem}summary{cursor:pointer}
pre{background:#f3f4f6;padding:.6rem;overflow:auto;font-size:12px}.m{display:inline-block;min-width:4.5em;font-weight:700}
.get{color:#047857}.post{color:#1d4ed8}.put,.patch{color:#b45309}.delete{color:#b91c1c}</style></head><body>
<h1>${esc(info.title)} <small>${esc(info.version)}</small></h1><p>${esc(info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${esc(doc.openapi)})</p>
${[...byTag.entries()].map(([tag, ops]) => `<h2>${esc(tag)}</h2>${ops.join('\n')}`).join('\n')}
<h2>Schemas</h2>${Object.entries(schemas)
    .map(([name, s]) => `<details><summary><code>${esc(name)}</code></summary>${schemaBlock(s)}</details>`)
    .join('\n')}
</body></html>`
}
