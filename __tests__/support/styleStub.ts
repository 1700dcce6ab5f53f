// CSS files are webpack's business; in Jest an import of one yields nothing.
export default {};
