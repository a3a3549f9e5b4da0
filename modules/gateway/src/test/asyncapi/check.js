// Parses the gateway's AsyncAPI document with the official parser and prints one JSON line:
// {"ok": true|false, "errors": [...], "warnings": n}. Exits 1 when the parser reports any error-severity diagnostic.
const fs = require('fs');
const path = require('path');
const { Parser, DiagnosticSeverity } = require('@asyncapi/parser');

const file = process.argv[2] || path.join(__dirname, '..', '..', 'main', 'resources', 'asyncapi.yaml');

(async () => {
  const parser = new Parser();
  const { document, diagnostics } = await parser.parse(fs.readFileSync(file, 'utf8'), { source: file });
  const errors = diagnostics.filter(d => d.severity === DiagnosticSeverity.Error)
    .map(d => `${d.code} at ${d.path.join('.')}: ${d.message}`);
  const warnings = diagnostics.filter(d => d.severity === DiagnosticSeverity.Warning)
    .map(d => `${d.code} at ${d.path.join('.')}: ${d.message}`);
  warnings.forEach(w => console.error('warning: ' + w));
  const ok = document !== undefined && errors.length === 0;
  console.log(JSON.stringify({ ok, errors, warnings: warnings.length,
    channels: document ? document.channels().length : 0, messages: document ? document.allMessages().length : 0 }));
  process.exit(ok ? 0 : 1);
})().catch(e => {
  console.log(JSON.stringify({ ok: false, errors: [String(e && e.stack || e)] }));
  process.exit(1);
});
