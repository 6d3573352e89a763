import { defineConfig } from '@lingui/cli'
import { formatter } from '@lingui/format-po'

/**
 * Two catalogs: the web client's (loaded lazily per locale by the Vite plugin) and the server's
 * (e-mails and error messages, compiled to JSON and read at start). Both ship in EN and DA.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'da'],
  fallbackLocales: { default: 'en' },
  format: formatter({ lineNumbers: false }),
  // The macros' <Trans> renders through client/i18n/plain-trans.tsx: a name such as `<b>Bo</b>`
  // put into a translated sentence stays text.
  runtimeConfigModule: { Trans: ['<rootDir>/client/i18n/plain-trans.tsx', 'Trans'] },
  catalogs: [
    { path: '<rootDir>/client/locales/{locale}', include: ['<rootDir>/client', '<rootDir>/shared'], exclude: ['**/node_modules/**', '**/*.test.*'] },
    { path: '<rootDir>/server/i18n/locales/{locale}', include: ['<rootDir>/server', '<rootDir>/shared'], exclude: ['**/node_modules/**', '**/*.test.*'] },
  ],
})
