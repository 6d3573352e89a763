// Every screen in English, at both sizes, for every role and signed out (e2e/every-route.ts).
import { describeEveryRoute } from './every-route'

describeEveryRoute('en', 24)
