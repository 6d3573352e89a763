import pino, { type Logger } from 'pino'

/**
 * Structured logs (pino, JSON lines) to stdout. Warnings and errors are also copied to the
 * system log shown on /logs through `sink`, which main wires to the logs service.
 */
export function createLogger(
  level: string,
  sink?: (level: 'WARN' | 'ERROR', message: string, context: unknown) => void,
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', '*.password', '*.secret', '*.token', '*.accessToken'], censor: '[redacted]' },
    ...(sink && {
      hooks: {
          logMethod(args, method, levelNumber) {
            if (levelNumber >= 40) {
              const [first, second] = args as unknown[]
              const message = typeof first === 'string' ? first : typeof second === 'string' ? second : 'log'
              const context = typeof first === 'object' && first !== null ? serializable(first) : null
              try {
                sink(levelNumber >= 50 ? 'ERROR' : 'WARN', message, context)
              } catch {
                // The system log must never break the request that logged.
              }
            }
            method.apply(this, args as Parameters<typeof method>)
          },
        },
      }),
  }
  return destination ? pino(options, destination) : pino(options)
}

function serializable(value: object): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = v instanceof Error ? { name: v.name, message: v.message } : v
  return out
}
