// Runs the Khronos glTF validator (npm package gltf-validator) on each file given and prints
// one JSON line per file: {"file", "errors", "warnings", "infos", "hints", "error_codes":
// {CODE: count}, "messages": [the first few errors]}. External resources are read only from
// the file's own folder (a URI that leaves it is reported as an error by the validator).
// The package is found through GLTF_VALIDATOR_DIR (a folder holding node_modules/gltf-validator,
// default /opt/gpucache-node). Exit status: 0 when every file was validated, 3 when the
// validator is not installed, 1 when a file could not be read at all.
'use strict';
const fs = require('fs');
const path = require('path');

const base = process.env.GLTF_VALIDATOR_DIR || '/opt/gpucache-node';
let validator;
try {
    validator = require(path.join(base, 'node_modules', 'gltf-validator'));
} catch (e) {
    process.stderr.write('gltf-validator not found under ' + base + '\n');
    process.exit(3);
}

async function one(file) {
    const folder = path.dirname(path.resolve(file));
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        writeTimestamp: false,
        externalResourceFunction: (uri) => new Promise((resolve, reject) => {
            const target = path.resolve(folder, decodeURIComponent(uri));
            if (path.dirname(target) !== folder) {
                reject('refusing ' + uri + ': outside ' + folder);
                return;
            }
            fs.readFile(target, (err, data) => err ? reject(err.toString()) : resolve(new Uint8Array(data)));
        }),
    });
    const codes = {};
    const messages = [];
    for (const m of report.issues.messages) {
        if (m.severity !== 0) continue;
        codes[m.code] = (codes[m.code] || 0) + 1;
        if (messages.length < 5) messages.push(m.code + ' ' + (m.pointer || '') + ': ' + m.message);
    }
    return {file: file, errors: report.issues.numErrors, warnings: report.issues.numWarnings,
            infos: report.issues.numInfos, hints: report.issues.numHints, error_codes: codes, messages: messages};
}

(async () => {
    let status = 0;
    for (const file of process.argv.slice(2)) {
        try {
            process.stdout.write(JSON.stringify(await one(file)) + '\n');
        } catch (e) {
            process.stdout.write(JSON.stringify({file: file, failed: String(e)}) + '\n');
            status = 1;
        }
    }
    process.exit(status);
})();
