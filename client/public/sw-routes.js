// Imported by the generated service worker. The Service Worker Static Routing API lets the
// browser send /api requests straight to the network without waking the worker: the API is never
// cached (docs/OFFLINE.md: data lives in IndexedDB), so the detour through the worker only cost time.
// Browsers without the API keep the normal path, where Workbox lets /api through untouched.
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes === 'function' && typeof URLPattern === 'function') {
    event.addRoutes([{ condition: { urlPattern: new URLPattern({ pathname: '/api/*' }) }, source: 'network' }]).catch(() => {})
  }
})
