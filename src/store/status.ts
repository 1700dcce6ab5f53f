// The status of a list a screen loads, one finite union for every slice that has one (STYLE 2).
export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';
