// The schedule app as a Cloudflare Worker (module syntax): the `scheduled` export is
// workersScheduled(app), the adapter under test; GET /runs answers what ran and the job log lines.
import { workersScheduled } from '../../../dist/jobs.js';
import { createScheduleApp } from './schedule-app.mjs';

const built = createScheduleApp().then((probe) => ({ ...probe, scheduled: workersScheduled(probe.app) }));

export default {
  async fetch() {
    const { runs, lines } = await built;
    return Response.json({ runs, lines: lines() });
  },
  async scheduled(controller, env, context) {
    await (await built).scheduled(controller, env, context);
  },
};
