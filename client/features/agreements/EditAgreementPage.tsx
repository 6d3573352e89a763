export function EditAgreementPage() {
  return null
}
