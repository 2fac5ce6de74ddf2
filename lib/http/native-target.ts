/**
 * Whether a request a runtime's native router matched (Bun's `routes`) may be answered on that
 * match: not when its path holds a `%` (the native router decodes parameters as it matches;
 * Tessera decodes after splitting and refuses a malformed escape with 400) or its URL a `\` or a
 * `#` (targets the request view must check). Those go to Tessera's router. Without them, the URL
 * is a valid origin-form target (what `incomingOfRoutedRequest` relies on).
 *
 * @example
 * mayRouteNatively('http://localhost/posts/7?q=%20'); // true: the `%` is the query's
 * mayRouteNatively('http://localhost/posts/%61'); // false
 */
export function mayRouteNatively(url: string): boolean {
  // A `%` in the query is the query parser's; in the path it is the router's (decoding, 400).
  const query = url.indexOf('?');
  const percent = url.indexOf('%');
  return !((percent !== -1 && (query === -1 || percent < query)) || url.includes('\\') || url.includes('#'));
}
