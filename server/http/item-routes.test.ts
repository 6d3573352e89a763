import { z } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import { errors, IdParam, itemRoutes } from './item-routes'
import { bearer, errorResponses, versionedWriteHeaders, writeHeaders } from './openapi'

const Thing = z.object({ id: z.string(), version: z.number() })
const r = itemRoutes({ tags: ['Things'], entity: Thing, name: 'thing' })

describe('itemRoutes', () => {
  it('frames every route: the feature’s tags, bearer security, only the error answers it names', () => {
    const route = r.route({
      method: 'post',
      path: '/things/{id}/poke',
      rules: { access: 'signed-in', data: 'write' },
      summary: 'Poke',
      request: { params: IdParam, headers: writeHeaders },
      ok: { 202: { description: 'Poked' } },
      errors: [401, 404],
    })
    expect(route).toMatchObject({ method: 'post', path: '/things/{id}/poke', tags: ['Things'], security: bearer, summary: 'Poke' })
    expect(route).not.toHaveProperty('description')
    expect(route.responses).toEqual({ 202: { description: 'Poked' }, 401: errorResponses[401], 404: errorResponses[404] })
    expect(route.getRoutingPath()).toBe('/things/:id/poke')
  })

  it('states the common routes of an item with their usual answers, and takes other error lists', () => {
    const update = r.update('/things/{id}', { summary: 'Change', description: 'Who may', body: Thing })
    expect(update.request.headers).toBe(versionedWriteHeaders)
    expect(update.request.params).toBe(IdParam)
    expect(update.description).toBe('Who may')
    expect(update.responses[200].description).toBe('The thing (ETag: its version)')
    expect(Object.keys(update.responses)).toEqual(['200', '400', '401', '403', '404', '409', '412', '422'])
    const page = r.page('/things', { summary: 'List', query: z.object({ limit: z.string().optional() }) })
    expect(page.responses[200].description).toBe('A page of things')
    expect(page.request.params).toBeUndefined()
    expect(Object.keys(page.responses)).toEqual(['200', '400', '401', '404'])
    const remove = r.remove('/things/{id}', { summary: 'Delete', errors: [401, 404] })
    expect(remove.responses).toEqual({ 204: { description: 'Deleted' }, ...errors([401, 404]) })
    expect(r.create('/things', { summary: 'Add', body: Thing }).request.headers).toBe(writeHeaders)
  })
})
