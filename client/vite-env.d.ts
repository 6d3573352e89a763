/// <reference types="vite/client" />

/** A catalog imported through @lingui/vite-plugin, compiled at build time. */
declare module '*.po' {
  import type { Messages } from '@lingui/core'
  export const messages: Messages
}
