declare module 'parse-prometheus-text-format' {
  /** One sample of a family: a value (counter, gauge) or buckets, count and sum (histogram, summary). */
  export interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  /** Parses Prometheus's text exposition format; throws on text that is not. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
