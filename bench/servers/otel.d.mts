// Types of otel.mjs for the TypeScript Tessera servers.
export declare const otelMode: 'none' | 'api' | 'sdk' | (string & {});
export declare function startOtelSdk(instrumentations?: readonly unknown[]): Promise<void>;
