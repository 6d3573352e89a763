/**
 * The server's environment, read from GET /api/health at start. Token login and the non-production
 * navigation sections depend on it (not on the build mode: one build runs in every environment).
 * The last answer is remembered on the device, so an offline start shows the same navigation;
 * with no answer ever, the client behaves as in production.
 */
import { api } from './api'
import { lazySchema } from './schemas'
import { createStore, useStore } from './store'

export type AppEnv = 'development' | 'test' | 'production'

const STORAGE_KEY = 'boligkasse.env'
const isAppEnv = (value: unknown): value is AppEnv => value === 'development' || value === 'test' || value === 'production'

function remembered(): AppEnv {
  try {
    const value = localStorage.getItem(STORAGE_KEY)
    return isAppEnv(value) ? value : 'production'
  } catch {
    return 'production'
  }
}

export const appEnvStore = createStore<AppEnv>(typeof localStorage === 'undefined' ? 'production' : remembered())

export async function loadAppEnv(): Promise<void> {
  try {
    const { env } = await api('GET', '/health', { schema: lazySchema('Health') })
    appEnvStore.set(env)
    localStorage.setItem(STORAGE_KEY, env)
  } catch {
    // No answer (offline) or no storage: keep what we had.
  }
}

export const useAppEnv = (): AppEnv => useStore(appEnvStore)
export const isProductionEnv = (env: AppEnv): boolean => env === 'production'
