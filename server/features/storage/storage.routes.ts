import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { SetStorageQuotaRequest, StorageUsage } from '../../../shared/contract/storage'
import { bearer, errorResponses as e, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { StorageService } from './storage.service'

const tags = ['Storage']
const CompanyParam = z.object({ companyId: z.uuid() })
const usage = { description: 'What the association’s files take of its quota, in bytes', ...json(StorageUsage) }

const read = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/storage/{companyId}',
  tags,
  security: bearer,
  summary:
    'What the association’s stored files (documents, message and article attachments, market and lending photos) take of its storage quota. ' +
    'Staff of the association (every company role) and the super admin; a resident 403; another association 404.',
  request: { params: CompanyParam },
  responses: { 200: usage, 401: e[401], 403: e[403], 404: e[404] },
})
const setQuota = route({
  rules: { access: 'super-admin', data: 'write' },
  method: 'put',
  path: '/storage/{companyId}/quota',
  tags,
  security: bearer,
  summary:
    'Set the association’s own storage quota in bytes (super admin), or null for the default (STORAGE_QUOTA_MB). Files already stored stay; uploads past the quota are refused (422).',
  request: { params: CompanyParam, headers: writeHeaders, ...jsonBody(SetStorageQuotaRequest) },
  responses: { 200: usage, 400: e[400], 401: e[401], 403: e[403], 404: e[404], 409: e[409] },
})

export const storageRoutes = (storage: StorageService) =>
  router()
    .openapi(read, async (c) => c.json(await storage.usage(requireActor(c.var.actor), c.req.valid('param').companyId), 200))
    .openapi(setQuota, async (c) =>
      c.json(await storage.setQuota(requireActor(c.var.actor), c.req.valid('param').companyId, c.req.valid('json').quotaBytes), 200),
    )
