// Text put into HTML the servers write themselves (mail bodies, the unsubscribe pages): the five characters that
// could end a text or an attribute value become entities.

/** `text` safe inside an element or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
