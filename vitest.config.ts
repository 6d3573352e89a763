import { defineConfig } from 'vitest/config'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'

export default defineConfig({
  plugins: [babel({ include: /client[\\/].*\.[jt]sx?(\?.*)?$/, plugins: ['@lingui/babel-plugin-lingui-macro'] }), lingui()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{server,shared,client,scripts}/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['./vitest.setup.ts'],
          // Explicit: a test app with a few scrypt sign-ins takes ~1 s idle and several times that
          // on a loaded 2-core machine; 5 s (the default) failed tests that pass alone.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
