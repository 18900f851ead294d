"""compare.py LABEL REF GOT: the two text tables (rows x outputs) agree
within 1e-4 relative (denominator max(|ref|, 1))."""
import sys

import numpy as np

label, ref_path, got_path = sys.argv[1:4]
ref = np.loadtxt(ref_path, ndmin=2)
got = np.loadtxt(got_path, ndmin=2)
if ref.shape != got.shape:
    print(f"{label}: shape {got.shape}, heurnet predict gave {ref.shape}", file=sys.stderr)
    sys.exit(1)
err = float(np.max(np.abs(ref - got) / np.maximum(np.abs(ref), 1.0)))
print(f"{label}: {ref.shape[0]} rows x {ref.shape[1]} outputs, max relative difference {err:.2e}",
      file=sys.stderr)
sys.exit(0 if err <= 1e-4 else 1)
