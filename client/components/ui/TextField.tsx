import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react'

interface FieldShellProps {
  id: string
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  children: ReactNode
}

/** Label, control, hint and error of one form field, wired with for/aria-describedby. */
function FieldShell({ id, label, hint, error, children }: FieldShellProps) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  )
}

const describedBy = (id: string, hint: unknown, error: unknown) => [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  id?: string
  ref?: Ref<HTMLInputElement>
}

export function TextField({ label, hint, error, id: givenId, className, ref, ...input }: TextFieldProps) {
  const autoId = useId()
  const id = givenId ?? autoId
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <input
        {...input}
        ref={ref}
        id={id}
        className={['input', className ?? ''].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </FieldShell>
  )
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  id?: string
}

export function TextAreaField({ label, hint, error, id: givenId, className, ...textarea }: TextAreaFieldProps) {
  const autoId = useId()
  const id = givenId ?? autoId
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <textarea
        {...textarea}
        id={id}
        className={['input', className ?? ''].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </FieldShell>
  )
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  id?: string
  options: readonly { value: string; label: string }[]
  ref?: Ref<HTMLSelectElement>
}

export function SelectField({ label, hint, error, id: givenId, options, className, ref, ...select }: SelectFieldProps) {
  const autoId = useId()
  const id = givenId ?? autoId
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <select
        {...select}
        ref={ref}
        id={id}
        className={['input', className ?? ''].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  )
}
