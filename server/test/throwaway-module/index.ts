import { z } from '@hono/zod-openapi'
import { defineModule } from '../../kernel/module'
import { json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { route } from '../../http/route'
import { requireActor } from '../../access/actor'

/**
 * A module that is not part of the product: server/kernel/module.test.ts adds it to the app's list
 * to prove that a module in a folder of its own is served with the rules it declares, and that
 * nothing else changes. Its notes live in memory.
 */
const Note = z.object({ id: z.number(), text: z.string(), by: z.string() })
const tags = ['Throw-away notes']

const list = route({
  method: 'get',
  path: '/throwaway-notes',
  rules: { access: 'public', data: 'read' },
  tags,
  summary: 'Every note (anyone)',
  responses: { 200: { description: 'The notes', ...json(z.array(Note)) } },
})
const add = route({
  method: 'post',
  path: '/throwaway-notes',
  rules: { access: 'signed-in', data: 'write' },
  tags,
  summary: 'Add a note (a signed-in user)',
  request: { headers: writeHeaders, ...jsonBody(z.object({ text: z.string().min(1).max(200) })) },
  responses: { 201: { description: 'The note', ...json(Note) } },
})
const count = route({
  method: 'get',
  path: '/throwaway-notes/count',
  rules: { access: 'super-admin', data: 'read' },
  tags,
  summary: 'How many notes there are (the super admin)',
  responses: { 200: { description: 'The count', ...json(z.object({ count: z.number() })) } },
})

export function throwawayModule() {
  const notes: Array<z.infer<typeof Note>> = []
  let ticks = 0
  return defineModule({
    name: 'throwaway-notes',
    tables: [],
    routes: () => [
      router()
        .openapi(list, (c) => c.json(notes, 200))
        .openapi(add, (c) => {
          const note = { id: notes.length + 1, text: c.req.valid('json').text, by: requireActor(c.var.actor).userId }
          notes.push(note)
          return c.json(note, 201)
        })
        .openapi(count, (c) => c.json({ count: notes.length }, 200)),
    ],
    jobs: () => [{ name: 'throwaway-notes', everyMs: 60_000, run: async () => void ticks++ }],
    notes,
    ticks: () => ticks,
  })
}
