// Imported by the generated service worker (vite.config.ts `importScripts`): push notifications
// (docs/decisions/0088-push-notifications.md). A push carries only a lock-screen title and the app
// path to open ({ title, url }); nothing else about the notification, so a locked phone shows no
// name, amount or subject. A click focuses an open window of the app (and takes it to the path) or
// opens a new one.
self.addEventListener('push', (event) => {
  const data = readPayload(event)
  const title = typeof data.title === 'string' && data.title ? data.title : 'Boligkasse'
  const url = appPath(data.url)
  event.waitUntil(
    self.registration.showNotification(title, {
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url },
      // One notification per path: a second push about the same thing replaces the first.
      tag: url,
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const target = new URL(appPath(event.notification.data && event.notification.data.url), self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin)
      if (open) return open.focus().then((w) => (w && 'navigate' in w ? w.navigate(target) : undefined))
      return self.clients.openWindow(target)
    }),
  )
})

/** The push's `{ title, url }`; an empty or unreadable payload shows the app's name and opens the start page. */
function readPayload(event) {
  try {
    return (event.data && event.data.json()) || {}
  } catch {
    return {}
  }
}

/** A path of this app, or '/': resolved against the app's origin, anything that leaves it ("/\\evil.example") opens the start page. */
function appPath(url) {
  if (typeof url !== 'string' || !url.startsWith('/')) return '/'
  try {
    const resolved = new URL(url, self.location.origin)
    return resolved.origin === self.location.origin ? resolved.pathname + resolved.search + resolved.hash : '/'
  } catch {
    return '/'
  }
}
