// Compile-time constants injected by webpack's DefinePlugin (see webpack.config.ts).
declare const __APP_VERSION__: string;
declare const __BUILD_TIME__: string;
declare const __BACKEND__: 'local' | 'firebase';
declare const __PUSH_HOST_OVERRIDE__: boolean;
declare const __SERVICE_WORKER__: boolean;
declare const __FIREBASE_ENV__: Record<string, string | undefined>;
