"""Print the published figures next to what the cost model gives (the table in docs/calibration.md).

Run: .venv/bin/python benchmarks/calibration_report.py
"""

from __future__ import annotations

from advisor.core.costing.estimate import estimate
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.goodput import goodput_fraction
from advisor.core.model.workload import Workload
from advisor.io.catalog_files import load_catalog

NO_DOWNTIME = Assumptions(goodput=1.0)


def main() -> None:
    cat = load_catalog(user_dir=False)

    def gpt3(precision: str, software: str):
        w = Workload(
            model=cat.model("gpt3-175b"),
            tokens=300e9,
            gpus=128,
            precision=precision,
            pricing="own",
            software=software,
            efficiency="reference",
        )
        return estimate(w, "h100", cat, NO_DOWNTIME)

    rows = []
    dec8, jan8, dec16 = gpt3("fp8", "2024-12"), gpt3("fp8", "2024-01"), gpt3("bf16", "2024-12")
    rows += [
        (
            "GPT-3 FP8 cost per 1M tokens, Dec 2024",
            "54.2¢",
            f"{dec8.cost_per_million_tokens_usd * 100:.2f}¢",
            dec8.cost_per_million_tokens_usd * 100 / 54.2 - 1,
        ),
        (
            "GPT-3 FP8 cost per 1M tokens, Jan 2024",
            "72¢",
            f"{jan8.cost_per_million_tokens_usd * 100:.2f}¢",
            jan8.cost_per_million_tokens_usd * 100 / 72 - 1,
        ),
        (
            "GPT-3 FP8 300B tokens, Dec 2024",
            "$162k",
            f"${dec8.cost_usd / 1e3:.1f}k",
            dec8.cost_usd / 162e3 - 1,
        ),
        (
            "GPT-3 FP8 300B tokens, Jan 2024",
            "$218k",
            f"${jan8.cost_usd / 1e3:.1f}k",
            jan8.cost_usd / 218e3 - 1,
        ),
        ("Joules per token, FP8", "2.46", f"{dec8.joules_per_token:.3f}", dec8.joules_per_token / 2.46 - 1),
        (
            "Joules per token, BF16",
            "3.63",
            f"{dec16.joules_per_token:.3f}",
            dec16.joules_per_token / 3.63 - 1,
        ),
        (
            "FP8 tokens per household-year",
            "15.8B",
            f"{dec8.tokens / dec8.household_years / 1e9:.2f}B",
            dec8.tokens / dec8.household_years / 15.8e9 - 1,
        ),
        (
            "Household-years, 300B tokens FP8",
            "19",
            f"{dec8.household_years:.2f}",
            dec8.household_years / 19 - 1,
        ),
        (
            "Household-years, 300B tokens BF16",
            "28",
            f"{dec16.household_years:.2f}",
            dec16.household_years / 28 - 1,
        ),
        (
            "H100 owner TCO per GPU-hour",
            "$1.42",
            f"${dec8.price_usd_per_gpu_hour:.3f}",
            dec8.price_usd_per_gpu_hour / 1.42 - 1,
        ),
    ]
    w = Workload(
        model=cat.model("llama3-70b"),
        tokens=1e12,
        gpus=144,
        precision="fp8",
        pricing="own",
        efficiency="reference",
    )
    ratio = (
        estimate(w, "gb200-nvl72", cat, NO_DOWNTIME).price_usd_per_gpu_hour
        / estimate(w, "h100", cat, NO_DOWNTIME).price_usd_per_gpu_hour
    )
    rows.append(("GB200 NVL72 / H100 TCO per GPU-hour", "1.6x (1.5-1.7)", f"{ratio:.3f}x", ratio / 1.6 - 1))
    rel = cat.system("h100").reliability
    good = goodput_fraction(
        16384, rel.mtbf_gpu_hours, rel.restart_minutes, cat.economics.checkpointing.stall_seconds
    ).fraction
    rows.append(("H100 goodput at 16,384 GPUs (Llama 3)", "> 90%", f"{good:.1%}", None))
    print("| published figure | published | model | difference |")
    print("| --- | --- | --- | --- |")
    for name, published, model, diff in rows:
        print(f"| {name} | {published} | {model} | {'' if diff is None else f'{diff:+.1%}'} |")


if __name__ == "__main__":
    main()
