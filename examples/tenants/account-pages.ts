import type { App } from '../../lib/index.js';

/**
 * The pages the links in account mails open (`APP_URL/verify-email?token=...`): each reads the
 * token from its own address and posts it to the API, so a mail's link works in any browser with
 * no frontend besides this app. A real product renders these in its own frontend; they only need
 * to post the token. No inline script (the script is its own same-origin file, so the pages run
 * under `default-src 'self'`), and the token never leaves this origin: `Referrer-Policy:
 * no-referrer` keeps it out of the Referer of anything the page loads.
 */
const PAGES: Readonly<Record<string, { title: string; form: string }>> = {
  '/verify-email': { title: 'Verify your address', form: '' },
  '/reset-password': {
    title: 'Choose a new password',
    form: '<form id="form"><label>New password <input id="password" type="password" autocomplete="new-password" required minlength="12"></label> <button>Set password</button></form>',
  },
  '/confirm-email-change': { title: 'Confirm your new address', form: '' },
};

const SCRIPT = `// Posts the link's token (and, to reset, the new password) to the API; the answer shows in #status.
const token = new URLSearchParams(location.search).get('token') ?? '';
const status = document.getElementById('status');
const routes = { '/verify-email': '/auth/verify-email', '/reset-password': '/auth/password/reset', '/confirm-email-change': '/auth/email/confirm' };
const done = { '/verify-email': 'Your address is verified. You can sign in.', '/reset-password': 'Your password is set; every session of your account has ended. Sign in again.', '/confirm-email-change': 'Your account now has this address.' };
async function submit(extra) {
  const response = await fetch(routes[location.pathname], { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, ...extra }) });
  const problem = response.ok ? undefined : await response.json().catch(() => undefined);
  status.textContent = response.ok ? done[location.pathname] : (problem?.detail ?? 'Something went wrong.');
  document.body.dataset.outcome = response.ok ? 'done' : 'refused';
}
const form = document.getElementById('form');
if (form === null) void submit({});
else form.addEventListener('submit', (event) => { event.preventDefault(); void submit({ password: document.getElementById('password').value }); });
`;

const HEADERS = {
  'content-security-policy': "default-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

function page(title: string, form: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script type="module" src="/account-pages.js"></script></head><body><h1>${title}</h1>${form}<p id="status" role="status"></p></body></html>`;
}

/**
 * Serves the account pages (`GET /verify-email`, `/reset-password`, `/confirm-email-change`)
 * and their script, public like `/openapi.json` (raw routes pass no guard).
 *
 * @example
 * serveTenantsAccountPages(await createApp(createTenantsModule(config)));
 */
export function serveTenantsAccountPages(app: Pick<App, 'addRawRoute'>): void {
  for (const [path, { title, form }] of Object.entries(PAGES)) {
    const html = page(title, form);
    app.addRawRoute('GET', path, () => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', ...HEADERS } }));
  }
  app.addRawRoute('GET', '/account-pages.js', () => new Response(SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', ...HEADERS } }));
}
