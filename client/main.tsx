/**
 * The app's first module: it starts the tab's first pull (early-pull.ts) and then loads the app
 * (app.tsx). It stays tiny on purpose: a module runs only once everything it imports has loaded,
 * so the pull starts at once instead of after React, the router and the session.
 */
import { startEarlyPull } from './sync/early-pull'

startEarlyPull()
void import('./app')
