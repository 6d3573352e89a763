export function AgreementPage() {
  return null
}
