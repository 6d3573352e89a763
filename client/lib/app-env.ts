/**
 * The server's environment, read once from GET /api/health. Token login and the non-production
 * navigation sections depend on it (not on the build mode: one build runs in every environment).
 * Until the answer arrives, and if it never does, the client behaves as in production.
 */
import { Health } from '../../shared/contract/health'
import { api } from './api'
import { createStore, useStore } from './store'

export type AppEnv = 'development' | 'test' | 'production'

export const appEnvStore = createStore<AppEnv>('production')

export async function loadAppEnv(): Promise<void> {
  try {
    appEnvStore.set((await api('GET', '/health', { schema: Health })).env)
  } catch {
    // No answer: keep the production behaviour.
  }
}

export const useAppEnv = (): AppEnv => useStore(appEnvStore)
export const isProductionEnv = (env: AppEnv): boolean => env === 'production'
