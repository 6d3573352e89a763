import { z } from 'zod'
import { Company } from '../../../shared/contract/companies'
import { api } from '../../lib/api'

/** Companies the caller may see (the super admin: all; staff: their own), in name order. */
export const loadCompanies = (signal?: AbortSignal): Promise<Company[]> => api('GET', '/company', { schema: z.array(Company), signal })
