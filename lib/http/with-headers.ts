import { toResponse, type Answer } from './answer.js';

/**
 * The same answer with `headers` set (replacing headers of the same name; a `Set-Cookie` is
 * appended, never replaced). A PlainAnswer gets a new headers object; a Response is copied
 * when its headers are immutable (a `Response.redirect`, a fetched response), else changed in place.
 *
 * @example
 * return withHeaders(await next(), { 'x-request-id': id });
 */
export function withHeaders(outcome: Answer, headers: Readonly<Record<string, string>>): Answer {
  if (!(outcome instanceof Response)) {
    const merged: Record<string, string> = { ...outcome.headers };
    for (const [name, value] of Object.entries(headers)) {
      const key = name.toLowerCase();
      // PlainAnswer headers hold one value per name; fold a second cookie into a Response instead.
      if (key === 'set-cookie' && merged[key] !== undefined) return withHeaders(toResponse(outcome), headers);
      merged[key] = value;
    }
    return { status: outcome.status, headers: merged, body: outcome.body };
  }
  let response = outcome;
  try {
    apply(response.headers, headers);
  } catch {
    response = new Response(outcome.body, outcome);
    apply(response.headers, headers);
  }
  return response;
}

function apply(target: Headers, headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'set-cookie') target.append(name, value);
    else target.set(name, value);
  }
}


/**
 * A header of an answer, whichever form it has (case-insensitive), or null.
 *
 * @example
 * headerOf(await next(), 'content-type'); // 'application/json'
 */
export function headerOf(outcome: Answer, name: string): string | null {
  if (outcome instanceof Response) return outcome.headers.get(name);
  const key = name.toLowerCase();
  for (const [header, value] of Object.entries(outcome.headers)) if (header.toLowerCase() === key) return value;
  return null;
}
