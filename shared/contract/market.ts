import { z } from 'zod'
import { listingKinds } from './values'
import { messages as m } from '../i18n-messages'
import { pageQueryFields } from './paging'
import { multiLineText, plainText } from './text'

/**
 * The market of an association (docs/PRODUCT.md "Market", decision 0063): members list
 * things to sell (BUY: the seller sells, with a price), to lend or give (SHARE) and to swap (SWAP).
 * A listing is available, reserved or gone, and expires 30 days after it was made or last renewed.
 * The same schemas check the client's form and the server's request.
 */
export { listingKinds }
export const ListingKind = z.enum(listingKinds, { error: m.optionInvalid.id })
export type ListingKind = z.infer<typeof ListingKind>

export const listingStatuses = ['AVAILABLE', 'RESERVED', 'GONE'] as const
export const ListingStatus = z.enum(listingStatuses, { error: m.optionInvalid.id })
export type ListingStatus = z.infer<typeof ListingStatus>

export const MAX_LISTING_TITLE = 120
export const MAX_LISTING_DESCRIPTION = 2000
export const MAX_CONTACT_TEXT = 1000
/** A BUY listing's price: at least 1 øre, at most 1,000,000 kr. */
export const MAX_LISTING_PRICE_ORE = 100_000_000
/** Days a listing stays listed after it was made or renewed. */
export const LISTING_DAYS = 30
/** A listing's photo: one image of at most 5 MB (checked by content and by the virus-scanning hook). */
export const MAX_LISTING_PHOTO_BYTES = 5 * 1024 * 1024
export const listingPhotoTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

const title = plainText(MAX_LISTING_TITLE, m.listingTitleRequired.id)
const description = multiLineText(MAX_LISTING_DESCRIPTION).or(z.literal('')).optional()
const priceOre = z
  .number({ error: m.listingPriceRequired.id })
  .int({ error: m.listingPriceRequired.id })
  .min(1, { error: m.listingPriceRequired.id })
  .max(MAX_LISTING_PRICE_ORE, { error: m.listingPriceTooHigh.id })

/** A price belongs to a BUY listing only (required there); share and swap listings have none. */
const priceFitsKind = (v: { kind?: ListingKind; priceOre?: number | null }, ctx: z.RefinementCtx) => {
  if (v.kind === 'BUY' && (v.priceOre === undefined || v.priceOre === null))
    ctx.addIssue({ code: 'custom', path: ['priceOre'], message: m.listingPriceRequired.id })
  if (v.kind && v.kind !== 'BUY' && v.priceOre !== undefined && v.priceOre !== null)
    ctx.addIssue({ code: 'custom', path: ['priceOre'], message: m.listingPriceOnlyForSale.id })
}

export const CreateListingRequest = z
  .object({
    /** Made by the client so an offline create is one row however often it is sent. */
    id: z.uuid().optional(),
    companyId: z.uuid(),
    kind: ListingKind,
    title,
    description,
    priceOre: priceOre.nullable().optional(),
  })
  .superRefine(priceFitsKind)
  .meta({ id: 'CreateListingRequest' })
export type CreateListingRequest = z.input<typeof CreateListingRequest>

/** The seller's changes; the kind stays (a price for BUY listings only). */
export const UpdateListingRequest = z
  .object({
    title: title.optional(),
    description,
    priceOre: priceOre.nullable().optional(),
    status: ListingStatus.optional(),
  })
  .meta({ id: 'UpdateListingRequest' })
export type UpdateListingRequest = z.input<typeof UpdateListingRequest>

/** "Write to the seller": a short text e-mailed and notified to the seller with the writer's name and e-mail. */
export const ContactSellerRequest = z.object({ text: multiLineText(MAX_CONTACT_TEXT, m.listingContactRequired.id) }).meta({ id: 'ContactSellerRequest' })
export type ContactSellerRequest = z.input<typeof ContactSellerRequest>

export const Listing = z
  .object({
    id: z.string(),
    companyId: z.string(),
    kind: ListingKind,
    title: z.string(),
    description: z.string(),
    priceOre: z.number().int().nullable(),
    status: ListingStatus,
    seller: z.object({ id: z.string().nullable(), fullName: z.string() }),
    /** The photo's id (changes when it is replaced), or null when there is none. */
    photoId: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Listing' })
export type Listing = z.infer<typeof Listing>

export const ListingListQuery = z.object({
  companyId: z.uuid(),
  kind: ListingKind.optional(),
  ...pageQueryFields,
})
export type ListingListQuery = z.output<typeof ListingListQuery>

/** Expired: past its `expiresAt` and not gone. Computed on read (no job marks it; decision 0063). */
export const isExpired = (l: { expiresAt: string; status: ListingStatus }, now: Date = new Date()): boolean =>
  l.status !== 'GONE' && new Date(l.expiresAt).getTime() <= now.getTime()

/** Whole days until the listing expires (0 on its last day), never negative. */
export const daysLeft = (expiresAt: string, now: Date = new Date()): number =>
  Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now.getTime()) / 86_400_000))
