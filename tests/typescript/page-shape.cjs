// The page's shape (scripts/check-page-types runs it): no function of web/ runs past 80 lines
// unless a comment just above it, or its first line, says why (`Over 80 lines: …`), as a file
// of more than 600 lines must say why at its top (scripts/check-structure). Read with the
// TypeScript compiler's own parser: functions, methods, constructors, accessors and arrows.
//
//   node tests/typescript/page-shape.cjs [FOLDER]    (default: web/ beside tests/)

const ts = require('typescript');
const fs = require('node:fs');
const path = require('node:path');

const LONG = 80;
const REASON = /Over 80 lines:/;
const root = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', 'web'));

/** @param {string} dir @returns {string[]} */
function scripts(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return scripts(file);
    return entry.name.endsWith('.js') ? [file] : [];
  });
}

const problems = [];
let functions = 0;
for (const file of scripts(root).sort()) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      functions += 1;
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const said = text.slice(node.getFullStart(), node.getStart()) + text.split('\n')[first];
      if (lines > LONG && !REASON.test(said)) {
        const name = node.name ? node.name.getText(source)
          : ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : 'a function';
        problems.push(`${path.relative(process.cwd(), file)}:${first + 1}: ${name} is ${lines} lines: split it along its seams, or say why not (// Over ${LONG} lines: …)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
for (const problem of problems) console.log(problem);
if (problems.length) process.exit(1);
console.log(`every one of the page's ${functions} functions is ${LONG} lines or less, or says why`);
