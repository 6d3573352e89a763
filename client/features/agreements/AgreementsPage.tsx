export function AgreementsPage() {
  return null
}
