"""The seven published runs of issue #11, estimated exactly as a user would (`advisor estimate … --json`,
default mode: production efficiency, the latest software release, the failure goodput), against the
published figure. Extra arguments (e.g. `--software 2024-07`) are passed to every command.

    python benchmarks/seven_runs.py
"""

from __future__ import annotations

import json
import subprocess
import sys

RUNS = [
    # (title, advisor estimate arguments, published quantity, published value)
    (
        "Llama 2 7B, 2T, 2,048 A100",
        "--model llama2-7b --tokens 2T --gpus 2048 --system a100",
        "gpu_hours",
        184_320,
    ),
    (
        "Llama 2 13B, 2T, 2,048 A100",
        "--model llama2-13b --tokens 2T --gpus 2048 --system a100",
        "gpu_hours",
        368_640,
    ),
    (
        "Llama 2 70B, 2T, 2,048 A100",
        "--model llama2-70b --tokens 2T --gpus 2048 --system a100",
        "gpu_hours",
        1_720_320,
    ),
    (
        "Llama 3.1 405B, 15.6T, 16,384 H100",
        "--model llama3-405b --tokens 15.6T --gpus 16384 --system h100",
        "gpu_hours",
        30.84e6,
    ),
    (
        "DeepSeek-V3, 14.8T FP8, 2,048 H800",
        "--model deepseek-v3 --tokens 14.8T --gpus 2048 --precision fp8 --system h100",
        "gpu_hours",
        2.788e6,
    ),
    (
        "MPT-7B, 1T, 440 A100-40GB",
        "--model mpt-7b --tokens 1T --gpus 440 --system a100",
        "days",
        9.5,
    ),
    (
        "OPT-175B, 992 A100",
        "--model gpt3-175b --tokens 180B --gpus 992 --system a100",
        "tflops_per_gpu",
        147,
    ),
]


def quantity(est: dict, name: str) -> float:
    if name == "gpu_hours":
        return est["gpu_hours"]
    hours = est["time_to_train_hours"]
    if name == "days":
        return hours / 24
    speed = est["tokens"] / ((hours - est["time_breakdown_hours"]["setup"]) * 3600 * est["gpus"])
    return speed * est["flops_per_token"] / 1e12


def error(est: dict, name: str, published: float) -> float:
    """Relative error of the estimate in the published quantity (TFLOP/s: + = the model is slower)."""
    model = quantity(est, name)
    return model / published - 1 if name != "tflops_per_gpu" else published / model - 1


def main() -> None:
    extra = sys.argv[1:]
    worst = 0.0
    print(f"{'run':38} {'published':>12} {'model':>12} {'error':>7}  mfu    software / basis")
    for title, args, name, published in RUNS:
        command = ["advisor", "estimate", *args.split(), *extra, "--json"]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        est = json.loads(out)
        est = est[0] if isinstance(est, list) else est
        err = error(est, name, published)
        worst = max(worst, abs(err))
        basis = est["mfu_basis"]["basis"]
        release = basis[basis.rfind("software release") :] if "software release" in basis else basis[-60:]
        model = quantity(est, name)
        print(f"{title:38} {published:12,.6g} {model:12,.6g} {err:+7.1%}  {est['mfu']:.3f}  {release}")
    print(f"worst |error| {worst:.1%} (error in the published quantity; TFLOP/s: + = the model is slower)")


if __name__ == "__main__":
    main()
