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
