import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { wireVipps } from '../integrations/vipps/built-in'

type WireOptions = Parameters<typeof wireVipps>[0]

/**
 * The built-in Vipps emulator wired for a test as `npm start` wires it outside production: no
 * login client, a fresh state folder, no timers (the test drives it), silent unless given a log.
 */
export const wireTestVipps = (
  opts: Pick<WireOptions, 'publicUrl' | 'clock' | 'db' | 'deliverTo'> & Partial<Pick<WireOptions, 'log' | 'hangMs' | 'clientOptions'>>,
) =>
  wireVipps({
    vippsBaseUrl: undefined,
    isProduction: false,
    loginClient: undefined,
    dataDir: mkdtempSync(join(tmpdir(), 'bk-vipps-')),
    log: pino({ level: 'silent' }),
    tickMs: 0,
    ...opts,
  })
