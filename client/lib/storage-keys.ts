/**
 * The localStorage keys the app reads, in one place: the first code to run (client/main.tsx, the
 * early pull) reads some of them before the rest of the app has loaded, so the modules that own
 * the values (session, locale, pull) and that first code must agree on the names.
 */
export const SESSION_KEY = 'boligkasse.session'
export const LOCALE_KEY = 'boligkasse.locale'
