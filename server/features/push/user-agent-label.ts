/**
 * A device's label for the profile's list, "Chrome on Android": the browser and the system from
 * the User-Agent, nothing more (the whole string is never stored, docs/PRIVACY.md).
 */
export function labelOf(userAgent: string | undefined): string {
  const ua = userAgent ?? ''
  const browser =
    /Edg\//.test(ua) ? 'Edge'
    : /Firefox\//.test(ua) ? 'Firefox'
    : /SamsungBrowser\//.test(ua) ? 'Samsung Internet'
    : /Chrome\/|Chromium\//.test(ua) ? 'Chrome'
    : /Safari\//.test(ua) ? 'Safari'
    : undefined
  const system =
    /Android/.test(ua) ? 'Android'
    : /iPhone|iPad|iPod/.test(ua) ? 'iOS'
    : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X|Macintosh/.test(ua) ? 'macOS'
    : /Linux|X11/.test(ua) ? 'Linux'
    : undefined
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? 'Browser'
}
