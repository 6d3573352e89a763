/**
 * The app's first module: it asks for the first sync pages (early-pull.ts) and then loads the app
 * (app.tsx). It stays tiny on purpose: a module runs only once everything it imports has loaded,
 * so the request leaves at once instead of after React, the router and the local database.
 */
import { startEarlyPull } from './sync/early-pull'

startEarlyPull()
void import('./app')
