// Static assets imported through webpack's asset modules resolve to their URL.
declare module '*.png' {
  const url: string;
  export default url;
}
declare module '*.svg' {
  const url: string;
  export default url;
}
// Style sheets are imported for their side effect (webpack's CSS pipeline puts them in the page); nothing is exported.
declare module '*.css';
