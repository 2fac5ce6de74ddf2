// Fires the schedule worker's `scheduled` handler the way Cloudflare's scheduler does, through a
// service binding's scheduled() (workerd's `service_binding_extra_handlers`, what miniflare's
// /cdn-cgi/handler/scheduled uses): GET /fire?cron=...&time=<ms> answers workerd's outcome of the
// event; any other path is forwarded to the worker.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== '/fire') return env.APP.fetch(request);
    const result = await env.APP.scheduled({ cron: url.searchParams.get('cron') ?? '', scheduledTime: new Date(Number(url.searchParams.get('time'))) });
    return Response.json(result);
  },
};
