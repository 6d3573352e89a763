import { api } from '../../lib/api'

/** docs/PRODUCT.md §2 "Contact", decision 0028: POST /api/contact e-mails the message to the platform's contact address. */
export async function sendContactMessage(message: string): Promise<void> {
  if (!message.trim()) throw new Error('Empty contact message')
  await api('POST', '/contact', { body: { message: message.trim() } })
}
