"""The ONNX tests' common step: a model already run through `npugen reference` (its output
in DIR/ref) also through `npugen run` on the verilated NPU (DIR/run), which must give the
same output. Returns what to report and, when it went wrong, the failure."""
import subprocess

import numpy as np


def npu_check(npugen, config, design, model, inp, d):
    """-> (status, failure or None): "bit-exact", "refused: ..." (exit 2, the NPU cannot run
    it: a window or padding above the generated maxima, ...), or a failure."""
    run = subprocess.run([npugen, "run", config, "--onnx", str(model), "--input", str(inp),
                          "--design", design, "--out", str(d / "run")],
                         capture_output=True, text=True)
    if run.returncode == 0:
        if np.array_equal(np.load(d / "run" / "output.npy"), np.load(d / "ref" / "output.npy")):
            return "bit-exact", None
        return "DIFFERS", f"{d.name}: the NPU's output differs from the reference's"
    if run.returncode == 2:
        return "refused: " + run.stderr.strip().splitlines()[0].split("error: ", 1)[-1], None
    return (f"FAILED ({run.returncode})",
            f"{d.name}: npugen run exited {run.returncode}: {(run.stdout + run.stderr)[-500:]}")
