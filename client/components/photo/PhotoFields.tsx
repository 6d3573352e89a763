import { Trans } from '@lingui/react/macro'

const accept = 'image/png,image/jpeg,image/gif,image/webp'

/** The optional photo of a new record (a listing, an item): online only, sent once the record is saved. */
export function NewPhotoField({ id, online, error, onChange }: { id: string; online: boolean; error?: string; onChange: (file: File | null) => void }) {
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        <Trans>Photo (optional)</Trans>
      </label>
      <input id={id} type="file" accept={accept} className="input" disabled={!online} onChange={(e) => onChange(e.target.files?.[0] ?? null)} />
      <p className="field-hint muted">
        {online ?
          <Trans>One image, at most 5 MB.</Trans>
        : <Trans>A photo can be added when you are online.</Trans>}
      </p>
      {error && <p className="field-error">{error}</p>}
    </div>
  )
}

/** The file chooser that adds or replaces a saved record's photo (the owner's, online; see usePhotoUpload). */
export function ReplacePhotoField({
  id,
  hasPhoto,
  error,
  onChange,
}: {
  id: string
  hasPhoto: boolean
  error: string | null
  onChange: (file: File | null) => void
}) {
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {hasPhoto ?
          <Trans>Replace the photo</Trans>
        : <Trans>Add a photo</Trans>}
      </label>
      <input id={id} type="file" accept={accept} className="input" onChange={(e) => onChange(e.target.files?.[0] ?? null)} />
      {error && <p className="field-error">{error}</p>}
    </div>
  )
}
