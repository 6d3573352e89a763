/**
 * docs/PRODUCT.md §2: message screens choose their base path from the current path prefix:
 * /super-admin/messages, /member/messages, /company/messages, otherwise /messages.
 */
export type MessagesBase = '/super-admin/messages' | '/member/messages' | '/company/messages' | '/messages'

export function messagesBase(pathname: string): MessagesBase {
  if (pathname.startsWith('/super-admin/')) return '/super-admin/messages'
  if (pathname.startsWith('/member/')) return '/member/messages'
  if (pathname.startsWith('/company/messages')) return '/company/messages'
  return '/messages'
}
