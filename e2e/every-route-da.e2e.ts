// Every screen in Danish, at both sizes, for every role and signed out (e2e/every-route.ts).
import { describeEveryRoute } from './every-route'

describeEveryRoute('da', 26)
