"""Command-line flags shared by `estimate`, `recommend`, `report` and `sensitivity`, and how they
combine with a scenario file into a `Scenario` (flags given override the file)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from advisor.core.model.sourced import check_release
from advisor.core.model.units import parse_number
from advisor.errors import UsageError

PRECISION_CHOICES = ("bf16", "fp8", "fp4")


def number(
    flag: str,
    *,
    low: float = 0.0,
    high: float = float("inf"),
    inclusive_low: bool = False,
    integer: bool = False,
    example: str = "",
) -> Callable[[str], float | int]:
    """An argparse `type` that reads human numbers (70B, 15T, $2.10) and checks the range."""

    def convert(text: str) -> float | int:
        try:
            value = parse_number(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a number{f' (e.g. {example})' if example else ''}"
            ) from None
        too_low = value < low if inclusive_low else value <= low
        if too_low or value > high:
            lower = f">= {low:g}" if inclusive_low else f"> {low:g}"
            upper = f" and <= {high:g}" if high != float("inf") else ""
            raise argparse.ArgumentTypeError(f"{text!r} is out of range: must be {lower}{upper}")
        if integer:
            if not float(value).is_integer():
                raise argparse.ArgumentTypeError(f"{text!r} must be a whole number")
            return int(value)
        return value

    convert.__name__ = flag
    return convert


def release_month(text: str) -> str:
    """argparse type for --software."""
    try:
        return check_release(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} must be a release month like 2024-12") from None


def add_scenario_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", nargs="?", help="a scenario file (TOML); flags given as well override it")


def add_workload_flags(parser: argparse.ArgumentParser) -> None:
    """Flags describing the workload and assumption overrides."""
    g = parser.add_argument_group("workload")
    g.add_argument("--model", help="model preset id (e.g. llama3-70b); see `advisor models`")
    g.add_argument(
        "--params",
        type=number("--params", low=1e6, inclusive_low=True, high=1e14, example="13e9"),
        help="custom model: total parameters (e.g. 13e9, 70B)",
    )
    g.add_argument(
        "--active-params",
        type=number("--active-params", low=1e6, inclusive_low=True, high=1e14),
        help="custom MoE model: active parameters per token",
    )
    g.add_argument(
        "--layers", type=number("--layers", high=10_000, integer=True), help="custom model: layers"
    )
    g.add_argument(
        "--hidden", type=number("--hidden", high=1_000_000, integer=True), help="custom model: hidden size"
    )
    g.add_argument(
        "--seq-len",
        type=number("--seq-len", high=10_000_000, integer=True),
        help="training sequence length (default: the model's)",
    )
    g.add_argument(
        "--tokens",
        type=number("--tokens", low=1, inclusive_low=True, example="15T, 300e9"),
        help="tokens to train (e.g. 15T, 300e9)",
    )
    g.add_argument(
        "--gpus", type=number("--gpus", high=1_000_000, integer=True), help="GPUs in the cluster (default 8)"
    )
    g.add_argument("--precision", choices=PRECISION_CHOICES, help="training precision (default bf16)")
    g.add_argument(
        "--kind", choices=("pretrain", "finetune", "inference"), help="job kind (default pretrain)"
    )
    g.add_argument("--finetune-method", choices=("full", "lora"), help="fine-tuning method (default full)")
    g.add_argument(
        "--prompt-tokens",
        type=number("--prompt-tokens", high=10_000_000, integer=True),
        help="inference: prompt tokens per request (default 500)",
    )
    g.add_argument(
        "--output-tokens",
        type=number("--output-tokens", high=10_000_000, integer=True),
        help="inference: generated tokens per request (default 500)",
    )
    g.add_argument(
        "--serving-batch",
        type=number("--serving-batch", high=100_000, integer=True),
        help="inference: requests decoded together per replica (default 32)",
    )
    g.add_argument(
        "--target-tokens-per-second",
        type=number("--target-tokens-per-second", example="50k"),
        help="inference: generated tokens per second to sustain (reports the GPUs needed)",
    )
    g.add_argument(
        "--pricing", choices=("rent", "own"), help="rent by the GPU-hour, or own (TCO); default rent"
    )
    g.add_argument(
        "--software",
        type=release_month,
        help="software release month for MFU (e.g. 2024-01); default: latest published",
    )
    g.add_argument(
        "--efficiency",
        choices=("reference", "production"),
        help="reference: a vendor-tuned recipe, as benchmarks report; production: a team's end-to-end run "
        "(default)",
    )
    g.add_argument(
        "--no-fp8-stack",
        action="store_true",
        default=None,
        help="the software stack has no FP8 support (FP8 requests run BF16)",
    )
    a = parser.add_argument_group("assumption overrides")
    a.add_argument(
        "--goodput", type=number("--goodput", high=1), help="fixed goodput in (0, 1]; 1 = no downtime"
    )
    a.add_argument("--mfu", type=number("--mfu", high=1), help="fixed MFU in (0, 1]")
    a.add_argument(
        "--price-per-gpu-hour",
        type=number("--price-per-gpu-hour", high=1000, example="2.10"),
        help="rental price, USD per GPU-hour",
    )
    a.add_argument(
        "--rental-offer",
        metavar="OFFER",
        help="rent at the catalog offer of this name where a system lists it, e.g. 'field test (2024)'",
    )
    a.add_argument(
        "--pue", type=number("--pue", low=1, inclusive_low=True, high=3), help="facility PUE (1-3)"
    )
    a.add_argument(
        "--electricity-usd-per-kwh",
        type=number("--electricity-usd-per-kwh", high=10),
        help="electricity price, USD per kWh",
    )


def add_constraint_flags(parser: argparse.ArgumentParser) -> None:
    c = parser.add_argument_group("constraints")
    c.add_argument(
        "--objective", choices=("cost", "time", "energy", "balanced"), help="what to minimise (default cost)"
    )
    c.add_argument(
        "--deadline-days", type=number("--deadline-days", high=36500), help="the run must finish within"
    )
    c.add_argument(
        "--budget-usd", type=number("--budget-usd", example="250k"), help="the run must cost at most"
    )
    c.add_argument(
        "--need-within-days",
        type=number("--need-within-days", inclusive_low=True, high=36500),
        help="capacity is needed within this many days",
    )
    c.add_argument(
        "--guaranteed-capacity",
        action="store_true",
        default=None,
        help="capacity must be guaranteed (reserved or owned)",
    )
    c.add_argument("--risk", choices=("conservative", "balanced", "early-adopter"), help="risk appetite")
    c.add_argument(
        "--iteration-speed",
        action="store_true",
        default=None,
        help="iteration speed matters more than marginal cost",
    )


def scenario_data_from_args(
    args: argparse.Namespace, base: dict[str, Any] | None, *, system: str | None
) -> dict:
    """Scenario data: `base` (from a file) with every flag the user gave laid over it."""
    data: dict[str, Any] = {
        "schema": 1,
        "name": "command line",
        "workload": {},
        "constraints": {},
        "assumptions": {},
    }
    if base:
        data = {**data, **base}
        for key in ("workload", "constraints", "assumptions"):
            data[key] = dict(base.get(key, {}))
    w, c, a = data["workload"], data["constraints"], data["assumptions"]

    def given(name: str) -> bool:
        return getattr(args, name, None) is not None

    if given("model"):
        w.pop("custom", None)
        w["model"] = args.model
    if given("params"):
        w.pop("model", None)
        custom = {"params": args.params}
        for flag, key in (("active_params", "active_params"), ("layers", "layers"), ("hidden", "hidden")):
            if given(flag):
                custom[key] = getattr(args, flag)
        w["custom"] = custom
    elif any(given(flag) for flag in ("active_params", "layers", "hidden")):
        if "custom" not in w:
            raise UsageError(
                "--active-params, --layers and --hidden describe a custom model: give --params too"
            )
        w["custom"] = {
            **w["custom"],
            **{k: getattr(args, k) for k in ("active_params", "layers", "hidden") if given(k)},
        }
    for flag in (
        "seq_len",
        "tokens",
        "gpus",
        "precision",
        "kind",
        "pricing",
        "software",
        "efficiency",
        "finetune_method",
        "prompt_tokens",
        "output_tokens",
        "serving_batch",
        "target_tokens_per_second",
    ):
        if given(flag):
            w[flag] = getattr(args, flag)
    if given("no_fp8_stack"):
        w["fp8_stack"] = False
    for flag in ("deadline_days", "budget_usd", "need_within_days", "risk"):
        if given(flag):
            c[flag] = getattr(args, flag)
    if given("guaranteed_capacity"):
        c["guaranteed_capacity"] = True
    if given("iteration_speed"):
        c["iteration_speed_matters"] = True
    if given("objective"):
        data["objective"] = args.objective
    if getattr(args, "size_to_deadline", False):
        data["size_to_deadline"] = True
    for flag in ("goodput", "pue", "electricity_usd_per_kwh", "rental_offer"):
        if given(flag):
            a[flag] = getattr(args, flag)
    key = system if system and system != "all" else "*"
    if given("mfu"):
        a["mfu"] = {**a.get("mfu", {}), key: args.mfu}
    if given("price_per_gpu_hour"):
        a["price_usd_per_gpu_hour"] = {**a.get("price_usd_per_gpu_hour", {}), key: args.price_per_gpu_hour}
    if "model" not in w and "custom" not in w:
        raise UsageError("which model? give --model <preset> or --params <count> (or a scenario file)")
    if "tokens" not in w:
        raise UsageError("how many tokens? give --tokens (e.g. 15T, 300e9)")
    return data
