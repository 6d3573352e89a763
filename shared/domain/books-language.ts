/**
 * The language of an association's books: the texts the server itself writes into vouchers (a
 * write-off's credit note, the note that settles a deposit) are in Danish, whoever's action made
 * them and whatever language the member reads the app in. A Danish association's books are read
 * by its treasurer, its auditor and the authorities in Danish (docs/decisions/0084-money-in-the-readers-locale.md);
 * mails, notifications and refusals follow their reader instead.
 */
export const BOOKS_LOCALE = 'da' as const
