// ort_run.js MODEL.onnx ROWS.f32 WIDTH: run the model in onnxruntime-node
// on all rows at once and on single rows (the batch dimension is symbolic),
// print one line per row (outputs tab-separated). Exits 1 if the two runs
// disagree or the graph's names are not x / h.
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, rowsPath, widthArg] = process.argv.slice(2);
  const width = Number(widthArg);
  const buf = fs.readFileSync(rowsPath);
  const data = new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
  const n = data.length / width;
  const session = await ort.InferenceSession.create(model);
  if (session.inputNames.join() !== 'x' || session.outputNames.join() !== 'h') {
    console.error(`names: inputs ${session.inputNames} outputs ${session.outputNames}`);
    process.exit(1);
  }
  const all = (await session.run({x: new ort.Tensor('float32', data, [n, width])})).h;
  const k = all.dims[1];
  for (let i = 0; i < Math.min(n, 5); i++) {
    const one = new ort.Tensor('float32', data.slice(i * width, (i + 1) * width), [1, width]);
    const h = (await session.run({x: one})).h.data;
    for (let j = 0; j < k; j++)
      if (Math.abs(h[j] - all.data[i * k + j]) > 1e-5 * Math.max(1, Math.abs(h[j]))) {
        console.error(`row ${i}: batch of 1 gives ${h[j]}, batch of ${n} gives ${all.data[i * k + j]}`);
        process.exit(1);
      }
  }
  const lines = [];
  for (let i = 0; i < n; i++)
    lines.push(Array.from(all.data.slice(i * k, (i + 1) * k), v => v.toPrecision(9)).join('\t'));
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch(e => { console.error(String(e)); process.exit(1); });
