import { ValueType, type Histogram, type Meter, type UpDownCounter } from '@opentelemetry/api';
import { DURATION_BUCKETS_SECONDS, METRIC_HTTP_SERVER_ACTIVE_REQUESTS, METRIC_HTTP_SERVER_REQUEST_DURATION } from './semantic-conventions.js';

/**
 * The two HTTP server instruments of the semantic conventions. Their attributes are bounded:
 * method (unknown methods as `_OTHER`), scheme, route template, status and error type; never a
 * raw path or an id.
 */
export interface HttpMetrics {
  readonly duration: Histogram;
  readonly active: UpDownCounter;
}

/**
 * Makes the HTTP server instruments on `meter`.
 *
 * @example
 * const { duration } = createHttpMetrics(metrics.getMeter('tessera-http'));
 * duration.record(0.012, { 'http.request.method': 'GET', 'http.route': '/posts/:id', 'http.response.status_code': 200 });
 */
export function createHttpMetrics(meter: Meter): HttpMetrics {
  return {
    duration: meter.createHistogram(METRIC_HTTP_SERVER_REQUEST_DURATION, {
      description: 'Duration of HTTP server requests.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_SECONDS] },
    }),
    active: meter.createUpDownCounter(METRIC_HTTP_SERVER_ACTIVE_REQUESTS, {
      description: 'Number of active HTTP server requests.',
      unit: '{request}',
      valueType: ValueType.INT,
    }),
  };
}
