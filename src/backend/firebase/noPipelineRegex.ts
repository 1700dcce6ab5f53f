// Stands in for re2js in the browser build (webpack.config.ts aliases it). Firestore's SDK imports re2js for one
// job: evaluating the regex and LIKE expressions of pipeline queries on the device. QuPM makes no pipeline
// queries (__tests__/architecture/firebaseSdk.test.ts keeps it so), and re2js was a quarter of the Firestore
// chunk. Should the SDK ever call it, it meets an error, which the SDK catches as an invalid pattern.
export const RE2JS = {
  compile(): never {
    throw new Error('QuPM makes no Firestore pipeline queries.');
  },
};
