/** Spec §2 "Contact": the send is simulated (a one-second wait); no server call is made yet. */
export const CONTACT_SEND_DELAY_MS = 1000

export async function sendContactMessage(message: string): Promise<void> {
  if (!message.trim()) throw new Error('Empty contact message')
  await new Promise((resolve) => setTimeout(resolve, CONTACT_SEND_DELAY_MS))
}
