// TypeScript 5.9's compiler, by the package's own name: the deployable build is made by the version this folder
// declares (its devDependencies), not by whichever `tsc` the workspace's bin folder links (the root also installs
// TypeScript 7's native compiler as `typescript7`, for type checking only, and its bin is named `tsc` too).
require(require.resolve('typescript/lib/tsc.js'));
