import type { Kernel } from './kernel'
import type { Factory, FeatureModule, Services } from './module'

/**
 * The services of `modules`, each made once, on first use, by the module that declares it: a
 * factory that reads another service gets it made then. Two modules declaring one name, a name no
 * module declares, and factories that need each other to be made are errors at start, naming them.
 * Every service is made before this returns, in the order of the modules.
 */
export function makeServices(modules: readonly FeatureModule[], kernel: Kernel): Services {
  const factories = new Map<string, { module: string; factory: Factory<unknown> }>()
  for (const module of modules)
    for (const [name, factory] of Object.entries(module.services ?? {})) {
      const earlier = factories.get(name)
      if (earlier) throw new Error(`service "${name}" is declared by both ${earlier.module} and ${module.name}`)
      factories.set(name, { module: module.name, factory: factory as Factory<unknown> })
    }

  const made = new Map<string, unknown>()
  const making: string[] = []
  const services = new Proxy({} as Services, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined
      if (made.has(name)) return made.get(name)
      const entry = factories.get(name)
      if (!entry) throw new Error(`no module declares the service "${name}"${making.length ? ` (needed by ${making.at(-1)})` : ''}`)
      if (making.includes(name)) throw new Error(`services need each other to be made: ${[...making.slice(making.indexOf(name)), name].join(' → ')}`)
      making.push(name)
      try {
        const service = entry.factory(services, kernel)
        made.set(name, service)
        return service
      } finally {
        making.pop()
      }
    },
    has: (_target, name) => typeof name === 'string' && factories.has(name),
    ownKeys: () => [...factories.keys()],
    getOwnPropertyDescriptor: (_target, name) => (typeof name === 'string' && factories.has(name) ? { enumerable: true, configurable: true } : undefined),
  })
  for (const name of factories.keys()) void (services as unknown as Record<string, unknown>)[name]
  // A plain object from here on: no proxy on the hot path.
  return Object.fromEntries(made) as unknown as Services
}
