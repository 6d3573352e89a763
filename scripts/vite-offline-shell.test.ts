import { describe, expect, it } from 'vitest'
import { offlineShell } from './vite-offline-shell'

/** A chunk of a fake bundle, with what the plugin reads. */
const chunk = (fileName: string, over: { isEntry?: boolean; facadeModuleId?: string; moduleIds?: string[]; imports?: string[]; css?: string[] } = {}) => ({
  type: 'chunk' as const,
  fileName,
  isEntry: over.isEntry ?? false,
  facadeModuleId: over.facadeModuleId ?? null,
  moduleIds: over.moduleIds ?? [],
  imports: over.imports ?? [],
  viteMetadata: { importedCss: new Set(over.css ?? []) },
})
const asset = (fileName: string) => ({ type: 'asset' as const, fileName })

describe('the offline shell (decision 0087)', () => {
  it('precaches the start, its imports and CSS, the listed routes, catalogs and schemas; lists every other asset for later', () => {
    const { plugin, state } = offlineShell({
      routes: ['login.tsx', '_auth/agreements/index.tsx'],
      modules: [/\/client\/locales\/[\w-]+\.po$/],
    })
    const bundle = Object.fromEntries(
      [
        chunk('assets/index-1.js', { isEntry: true, facadeModuleId: '/r/client/main.tsx', imports: ['assets/runtime-1.js'] }),
        chunk('assets/runtime-1.js'),
        chunk('assets/app-1.js', { facadeModuleId: '/r/client/app.tsx', imports: ['assets/react-1.js'], css: ['assets/app-1.css'] }),
        chunk('assets/react-1.js'),
        chunk('assets/login-1.js', { moduleIds: ['/r/client/routes/login.tsx?tsr-split=component'], imports: ['assets/Button-1.js'] }),
        chunk('assets/Button-1.js'),
        chunk('assets/AgreementsPage-1.js', { moduleIds: ['/r/client/routes/_auth/agreements/index.tsx?tsr-split=component'] }),
        chunk('assets/_id-1.js', { moduleIds: ['/r/client/routes/_auth/agreements/$id.tsx?tsr-split=component'], css: ['assets/_id-1.css'] }),
        chunk('assets/da-1.js', { moduleIds: ['/r/client/locales/da.po'] }),
        chunk('assets/xlsx-1.js', { moduleIds: ['/r/node_modules/xlsx/xlsx.mjs'] }),
        asset('assets/app-1.css'),
        asset('assets/_id-1.css'),
        asset('index.html'),
      ].map((c) => [c.fileName, c]),
    )
    const emitted: { name?: string; source?: string }[] = []
    const context = {
      emitFile: (file: { name?: string; source?: string }) => (emitted.push(file), 'ref'),
      getFileName: () => 'assets/sw-offline-1.js',
    }
    ;(plugin.generateBundle as unknown as (this: typeof context, o: unknown, b: typeof bundle) => void).call(context, {}, bundle)

    expect([...state.shell].sort()).toEqual(
      [
        'index.html',
        'assets/index-1.js',
        'assets/runtime-1.js',
        'assets/app-1.js',
        'assets/react-1.js',
        'assets/app-1.css',
        'assets/login-1.js',
        'assets/Button-1.js',
        'assets/AgreementsPage-1.js',
        'assets/da-1.js',
      ].sort(),
    )
    expect(state.script).toBe('/assets/sw-offline-1.js')
    const source = emitted[0]!.source!
    expect(JSON.parse(/self\.__OFFLINE_LATER__ = (\[.*\]);/.exec(source)![1]!)).toEqual(['/assets/_id-1.css', '/assets/_id-1.js', '/assets/xlsx-1.js'])
    // The worker's own code follows the list.
    expect(source).toContain("addEventListener('install'")
  })
})
