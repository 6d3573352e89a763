/**
 * The HTML allowed in notification and message text, shared by the server (sanitizing on write)
 * and the client (sanitizing again on render). Links may only be http(s), mailto or relative.
 */
export const ALLOWED_TAGS = ['a', 'b', 'strong', 'i', 'em', 'u', 'p', 'br', 'ul', 'ol', 'li', 'span', 'code', 'small']
export const ALLOWED_ATTR = ['href', 'title']
export const ALLOWED_URI_REGEXP = /^(?:https?:|mailto:|\/(?!\/))/i
