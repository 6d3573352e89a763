/**
 * Push notifications on this device (docs/decisions/0088-push-notifications.md, docs/PRODUCT.md
 * "Profile"): the browser's side (permission, the service worker's push subscription made with the
 * server's VAPID key) and the server's (the device signed up, the groups and quiet hours). All
 * need a connection; nothing here is queued offline.
 */
import { z } from 'zod'
import { PushDevice, PushPreferences, VapidPublicKey } from '../../../shared/contract/push'
import { api, ApiError } from '../../lib/api'

/** Whether this browser can take push notifications at all (iOS only from the home screen). */
export const pushSupported = (): boolean => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window

/** The service worker's registration, once it is active; refused after a while (a development server has none). */
async function registration(): Promise<ServiceWorkerRegistration> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no service worker')), 10_000))
  return await Promise.race([navigator.serviceWorker.ready, timeout])
}

/** This device's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null
  const reg = await navigator.serviceWorker.getRegistration()
  return (await reg?.pushManager.getSubscription()) ?? null
}

/** base64url → the bytes `applicationServerKey` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/')
  const raw = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

export type EnableOutcome = 'enabled' | 'denied'

/**
 * Asks for permission, subscribes with the server's key and signs the device up. A subscription
 * made with another key (the server's pair changed) is replaced.
 */
export async function enablePush(): Promise<EnableOutcome> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') return 'denied'
  const reg = await registration()
  const { publicKey } = await api('GET', '/push/vapid-public-key', { schema: VapidPublicKey })
  const key = keyBytes(publicKey)
  let sub = await reg.pushManager.getSubscription()
  const sameKey = (s: PushSubscription) => {
    const had = s.options.applicationServerKey
    return !had || new Uint8Array(had).join() === key.join()
  }
  if (sub && !sameKey(sub)) {
    await sub.unsubscribe()
    sub = null
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
  const json = sub.toJSON()
  await api('POST', '/push/subscriptions', { body: { endpoint: json.endpoint, keys: json.keys }, schema: PushDevice })
  return 'enabled'
}

/** Stops pushes to this device: the server forgets it (already forgotten is fine) and the browser drops the subscription. */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription()
  if (!sub) return
  try {
    await api('POST', '/push/subscriptions/unsubscribe', { body: { endpoint: sub.endpoint } })
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e
  }
  await sub.unsubscribe()
}

export const pushDevices = (): Promise<PushDevice[]> => api('GET', '/push/subscriptions', { schema: z.array(PushDevice) })
export const removePushDevice = (id: string): Promise<void> => api('DELETE', `/push/subscriptions/${id}`)
export const pushPreferences = (): Promise<PushPreferences> => api('GET', '/push/preferences', { schema: PushPreferences })
export const savePushPreferences = (body: PushPreferences): Promise<PushPreferences> => api('PUT', '/push/preferences', { body, schema: PushPreferences })
