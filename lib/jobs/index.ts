// The jobs entry point, `tessera-http/jobs`: durable jobs and schedules on the app's own engines
// (in memory, PostgreSQL through pg-boss, Redis through BullMQ). Explicit named exports only.
export { defineJob, defineJobClass, jobOfClass } from './define-job.js';
export type { JobDefinition, JobOptions, JobContext, JobProviders, JobPayload, JobHandler, JobClass } from './define-job.js';
export type { JobSchedule } from './job-schedule.js';
export { JobsModule } from './jobs-module.js';
export type { JobsModuleOptions } from './jobs-module.js';
export type { JobsRole } from './jobs-runtime.js';
export { JOBS } from './job-queue.js';
export type { JobQueue, EnqueueOptions } from './job-queue.js';
export { JobPayloadError, JobTimeoutError } from './job-errors.js';
export type { JobEngine, JobQueueSpec, JobBackoff, JobEnvelope, EngineJob, EnqueueRequest, FailedJob, JobRunner, JobTransaction } from './job-engine.js';
export { memoryJobEngine } from './memory-job-engine.js';
export type { MemoryJobEngineOptions } from './memory-job-engine.js';
export { pgBossJobEngine } from './pg-boss-job-engine.js';
export type { PgBossJobEngineOptions } from './pg-boss-job-engine.js';
export { bullmqJobEngine } from './bullmq-job-engine.js';
export type { BullmqJobEngineOptions } from './bullmq-job-engine.js';
export { platformSchedules, workersScheduled, denoCronSchedules } from './platform-schedules.js';
export type { PlatformSchedule, DenoCron, AppWithJobs } from './platform-schedules.js';
