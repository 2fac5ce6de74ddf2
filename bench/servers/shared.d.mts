// Types of shared.mjs for the TypeScript Tessera servers (the typecheck covers bench/).
export declare const JWT_SECRET: string;
export declare const DECOY_ROUTES: ReadonlyArray<{ index: number; prefix: string; suffix: string | undefined; path: string }>;
export declare function fixedPost(id: string): { id: string; title: string; body: string; createdAt: string };
export declare function decoyAnswer(index: number, id: string): { route: number; id: string };
export declare function decodeParam(raw: string): string | undefined;
export declare function createPost(input: { title: string; body: string }): { id: string; title: string; body: string; createdAt: string };
export declare const scenario: 'hello' | 'create' | 'routes' | 'me' | (string & {});
export declare const port: number;
export declare const host: string;
export declare function ready(): void;
