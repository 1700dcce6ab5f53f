// functions/' callables log a DEBUG line for every request they verify (firebase-functions' logger writes it with
// console.debug): some 200 lines a run that say only that all went well. Warnings and errors still show.
console.debug = () => undefined;
