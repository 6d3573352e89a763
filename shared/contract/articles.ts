import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { pageQueryFields } from './paging'
import { multiLineText, plainText } from './text'

/**
 * The knowledge bank (docs/PRODUCT.md "Knowledge bank", decision 0065): an association's
 * articles, written by its company admin staff and read by its members, and the platform's shared
 * articles (`companyId` null), written by the super admin and read by every signed-in user. The body
 * is HTML with the messages' safe formatting (sanitized by the server); tags are a few short words.
 * The same schemas check the client's form and the server's request.
 */
export const articleLanguages = ['en', 'da'] as const
export const ArticleLanguage = z.enum(articleLanguages, { error: m.optionInvalid.id })
export type ArticleLanguage = z.infer<typeof ArticleLanguage>

export const MAX_ARTICLE_TITLE = 160
/** Characters of (HTML) body. */
export const MAX_ARTICLE_BODY = 50_000
export const MAX_ARTICLE_TAGS = 10
export const MAX_ARTICLE_TAG = 30
export const MAX_ARTICLE_QUERY = 200
/** An article's attachment: at most 20 MB (as documents), the attachments' file types, scanned. */
export const MAX_ARTICLE_ATTACHMENT_BYTES = 20 * 1024 * 1024
export const MAX_ARTICLE_ATTACHMENTS = 10

/**
 * A tag as stored: lower case, inner spaces as hyphens, only letters, digits and hyphens
 * ("Vaskeri" → "vaskeri", "Varme og vand" → "varme-og-vand"); empty when nothing is left.
 */
export const normaliseTag = (tag: string): string =>
  tag
    .trim()
    .toLocaleLowerCase('da')
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}-]/gu, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')

/** Tags as typed (a list, or one text split at commas) to the stored list: normalised, without repeats. */
export const tagsOf = (tags: readonly string[]): string[] => [...new Set(tags.map(normaliseTag).filter(Boolean))]

const tags = z
  .array(z.string({ error: m.articleTagInvalid.id }).max(MAX_ARTICLE_TAG, m.articleTagTooLong.id), { error: m.articleTagInvalid.id })
  .transform(tagsOf)
  .refine((t) => t.length <= MAX_ARTICLE_TAGS, m.articleTooManyTags.id)
  .optional()

const title = plainText(MAX_ARTICLE_TITLE, m.articleTitleRequired.id)
const body = multiLineText(MAX_ARTICLE_BODY, m.articleBodyRequired.id).meta({
  description: 'HTML (sanitized by the server: the tags of shared/domain/html-policy.ts); line breaks are kept',
})

export const CreateArticleRequest = z
  .object({
    /** Made by the client so an offline create is one row however often it is sent. */
    id: z.uuid().optional(),
    /** The association; null (or absent) for a platform article (the super admin only). */
    companyId: z.uuid().nullable().optional(),
    language: ArticleLanguage,
    title,
    body,
    tags,
  })
  .meta({ id: 'CreateArticleRequest' })
export type CreateArticleRequest = z.input<typeof CreateArticleRequest>

export const UpdateArticleRequest = z
  .object({ language: ArticleLanguage.optional(), title: title.optional(), body: body.optional(), tags })
  .meta({ id: 'UpdateArticleRequest' })
export type UpdateArticleRequest = z.input<typeof UpdateArticleRequest>

export const ArticleAttachment = z
  .object({ id: z.string(), fileName: z.string(), contentType: z.string(), size: z.number().int(), createdAt: z.string() })
  .meta({ id: 'ArticleAttachment' })
export type ArticleAttachment = z.infer<typeof ArticleAttachment>

export const Article = z
  .object({
    id: z.string(),
    /** The association; null for a platform article (every signed-in user reads it). */
    companyId: z.string().nullable(),
    language: ArticleLanguage,
    title: z.string(),
    /** Sanitized HTML. */
    body: z.string(),
    tags: z.array(z.string()),
    author: z.object({ id: z.string().nullable(), fullName: z.string() }),
    attachments: z.array(ArticleAttachment),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Article' })
export type Article = z.infer<typeof Article>

/** A search hit or a list row: the article without its body, with a short text excerpt. */
export const ArticleSummary = z
  .object({
    id: z.string(),
    companyId: z.string().nullable(),
    language: ArticleLanguage,
    title: z.string(),
    tags: z.array(z.string()),
    /** The beginning of the body's text. */
    excerpt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ArticleSummary' })
export type ArticleSummary = z.infer<typeof ArticleSummary>

export const ArticleListQuery = z.object({
  /** Words to find in titles, bodies and tags (docs/decisions/0085); best matches first. */
  q: z.string().max(MAX_ARTICLE_QUERY, m.tooLong.id).optional().meta({
    description:
      'Search words; every word must be found: as a word, its start, inside a compound word, or with a typo (1 from 5 letters, 2 from 8); æ/ae, ø/oe/o and å/aa/a alike',
  }),
  /** Only this association's articles (and the platform's); without it, those of every association the caller is a member of. */
  companyId: z.uuid().optional(),
  language: ArticleLanguage.optional(),
  ...pageQueryFields,
})
export type ArticleListQuery = z.output<typeof ArticleListQuery>

/** A numeric character reference's character; one that names no character (0, a surrogate, beyond U+10FFFF) is U+FFFD, as HTML reads it. */
const codePoint = (n: number): string => (n > 0 && n <= 0x10ffff && (n < 0xd800 || n > 0xdfff) ? String.fromCodePoint(n) : '\uFFFD')

/** The text of sanitized HTML (tags out, the common entities decoded, blanks folded): what search and excerpts read. */
export function htmlText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/ul|\/ol)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos|nbsp|#39);/gi, (e) => {
      const k = e.slice(1, -1).toLowerCase()
      if (k.startsWith('#x')) return codePoint(parseInt(k.slice(2), 16))
      if (k.startsWith('#')) return codePoint(parseInt(k.slice(1), 10))
      return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }[k] ?? e
    })
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
}
