export function CreateAgreementPage() {
  return null
}
