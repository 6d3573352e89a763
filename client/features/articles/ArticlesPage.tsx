import { useEffect, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import type { ArticleLanguage } from '../../../shared/contract/articles'
import { htmlText } from '../../../shared/contract/articles'
import { queryTerms } from '../../../shared/domain/search'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { ApiError } from '../../lib/api'
import { formatDate } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { searchArticles } from './articles-api'
import { languageLabels } from './labels'
import { searchOffline } from './offline-search'
import { useArticles, type ArticleView } from './use-articles'

interface Shown {
  id: string
  companyId: string | null
  language?: ArticleLanguage
  title: string
  excerpt: string
  tags: string[]
  updatedAt?: string
  pending?: boolean
}

const shownOf = (a: ArticleView): Shown => ({
  id: a.id,
  companyId: a.companyId ?? null,
  language: a.language,
  title: a.title ?? '',
  excerpt: htmlText(a.body ?? '').slice(0, EXCERPT),
  tags: a.tags ?? [],
  updatedAt: a.updatedAt,
  pending: !!a._pending,
})

/** Characters of text a card shows (the server's excerpt is as long). */
const EXCERPT = 240

/** An excerpt cut at its last whole word, with an ellipsis when the text goes on. */
const shortened = (excerpt: string) => {
  if (excerpt.length < EXCERPT) return excerpt
  const cut = excerpt.slice(0, EXCERPT).replace(/\s+\S*$/, '')
  return `${cut}…`
}

type Search = { state: 'idle' } | { state: 'searching' } | { state: 'online'; rows: Shown[] } | { state: 'offline'; rows: Shown[] }

/**
 * The knowledge bank (decision 0065): the association's articles and the platform's, newest first from
 * the device's copy (so the list shows offline), and a search. Online the server answers, offline the
 * device's copy is searched and the page says so; both rank alike (shared/domain/search, decision 0085).
 */
export function ArticlesPage({ q }: { q: string }) {
  const { t, i18n } = useLingui()
  usePageTitle(t`Articles`)
  const navigate = useNavigate()
  const handle = useSync()
  const { online } = useSyncStatus(handle)
  const rows = useArticles(handle)
  const user = useSession().user
  const writer = user?.userRole === 'SUPERADMIN' || !!user?.currentCompany
  const [text, setText] = useState(q)
  const [search, setSearch] = useState<Search>({ state: 'idle' })

  useEffect(() => setText(q), [q])
  useEffect(() => {
    // A query without words (punctuation alone) is the list, as the server answers it.
    if (queryTerms(q).length === 0) return setSearch({ state: 'idle' })
    const offline = () => setSearch({ state: 'offline', rows: searchOffline(rows ?? [], q).map(shownOf) })
    if (!online) return offline()
    const controller = new AbortController()
    setSearch({ state: 'searching' })
    searchArticles(q, controller.signal).then(
      (found) => setSearch({ state: 'online', rows: found.map((a) => ({ ...a })) }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        if (error instanceof ApiError && error.status === 0) offline()
        else setSearch({ state: 'online', rows: [] })
      },
    )
    return () => controller.abort()
    // The device's rows only matter to an offline search; a new sync does not search again online.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, online, online ? undefined : rows])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void navigate({ to: '/articles', search: { q: text.trim() || undefined } })
  }

  const list: Shown[] | undefined =
    search.state === 'online' || search.state === 'offline' ? search.rows
    : search.state === 'searching' ? undefined
    : rows?.map(shownOf)

  return (
    <div className="page articles-page">
      <div className="page-header">
        <h1>
          <Trans>Articles</Trans>
        </h1>
        {writer && (
          <Link to="/articles/new" className={buttonClass('primary')}>
            <span aria-hidden="true">+ </span>
            <Trans>New article</Trans>
          </Link>
        )}
      </div>
      <p className="muted">
        <Trans>Good to know about living here: your association’s articles and guides for every association.</Trans>
      </p>
      <form role="search" className="article-search" onSubmit={submit}>
        <label htmlFor="article-search" className="sr-only">
          <Trans>Search articles</Trans>
        </label>
        <input
          id="article-search"
          type="search"
          className="input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t`Search titles, text and tags`}
          maxLength={200}
        />
        <Button type="submit">
          <Trans>Search</Trans>
        </Button>
      </form>
      {search.state === 'offline' && (
        <Alert variant="info">
          <Trans>You are offline: this searches the copy on this device.</Trans>
        </Alert>
      )}
      {q.trim() && list && (
        <p className="muted" aria-live="polite">
          {list.length === 0 ?
            <Trans>No articles match “{q}”.</Trans>
          : <Trans>Articles matching “{q}”:</Trans>}{' '}
          <Link to="/articles">
            <Trans>Show all articles</Trans>
          </Link>
        </p>
      )}
      {!list ?
        <Spinner label={t`Loading articles`} />
      : !q.trim() && list.length === 0 ?
        <p className="empty">
          <Trans>No articles yet</Trans>
        </p>
      : <ul className="plain-list article-list" aria-label={t`Articles`}>
          {list.map((a) => (
            <ArticleCard key={a.id} article={a} languageLabel={a.language ? i18n._(languageLabels[a.language]) : ''} />
          ))}
        </ul>
      }
    </div>
  )
}

function ArticleCard({ article: a, languageLabel }: { article: Shown; languageLabel: string }) {
  const locale = useLocale()
  return (
    <li className="card article-card">
      <h2 className="article-card-title" lang={a.language}>
        <Link to="/articles/$id" params={{ id: a.id }}>
          {a.title}
        </Link>
      </h2>
      <p className="article-excerpt" lang={a.language}>
        {shortened(a.excerpt)}
      </p>
      <p className="article-meta muted">
        {a.companyId === null ?
          <Badge variant="info">
            <Trans>For every association</Trans>
          </Badge>
        : <Badge variant="neutral">
            <Trans>Your association</Trans>
          </Badge>
        }{' '}
        <span>{languageLabel}</span>
        {a.updatedAt && (
          <>
            {' · '}
            <Trans>Updated {formatDate(a.updatedAt, locale)}</Trans>
          </>
        )}
        {a.tags.length > 0 && (
          <>
            {' · '}
            <span lang={a.language}>{a.tags.map((tag) => `#${tag}`).join(' ')}</span>
          </>
        )}
        {a.pending && <PendingMarker />}
      </p>
    </li>
  )
}
