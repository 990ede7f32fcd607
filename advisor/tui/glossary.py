"""What the terms on screen mean: the glossary the help screen (F1) lists. A test reads every tab of
the three common decisions and requires an entry for each term it finds."""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.core.decision.verdict import CLOSE_MARGIN, MIN_SLACK_HOURS, ROBUST_SHARE


@dataclass(frozen=True)
class Term:
    """One entry: the term as shown in bold, the words on screen it explains, and its meaning."""

    name: str
    meaning: str
    shown_as: tuple[str, ...] = ()
    """Abbreviations and words on screen this entry explains (besides its name)."""


GLOSSARY: tuple[Term, ...] = (
    Term("GPU", "a graphics processor used as an accelerator; a system is a server (node) or rack of them."),
    Term(
        "MFU",
        "model FLOPs utilisation: the share of the GPUs' peak arithmetic a training run really uses "
        "(40% is typical).",
    ),
    Term(
        "TFLOPS",
        "trillions of arithmetic operations per second: a GPU's peak speed at a number format.",
        ("FLOPs", "PFLOPS"),
    ),
    Term(
        "BF16, FP8, FP4",
        "number formats, 16, 8 and 4 bits: fewer bits run faster and take less memory.",
        ("BF16", "FP8", "FP4", "FP6", "FP16", "MXFP4"),
    ),
    Term("FP8 stack", "whether your software trains in FP8; if not, FP8 runs at BF16 speed."),
    Term(
        "Goodput",
        "the share of the wall-clock time that is useful training, after failures, restarts and lost work.",
    ),
    Term(
        "Training stack: production / reference",
        "production adds the time a real team's run spends on evaluations, checkpoints, stalls and "
        'less-tuned software (the "overhead" part); reference is the vendor\'s benchmark recipe.',
    ),
    Term(
        "PUE",
        "power usage effectiveness: the facility's total power over the IT (computing) power; 1.3 means "
        "30% more for cooling and the rest.",
        ("IT",),
    ),
    Term(
        "P10–P90",
        "the range the answer falls in 8 times out of 10 when the uncertain inputs (MFU, prices, "
        "failures and, when buying, the depreciation life, cost of capital and utilisation) vary; P50 is "
        "the middle.",
        ("P10", "P50", "P90"),
    ),
    Term(
        "TCO",
        "total cost of ownership: buying, power, space, staff and maintenance, spread over the hours the "
        "hardware is used.",
    ),
    Term("Capex/node", "the purchase price of one server (node) or rack of GPUs.", ("Capex",)),
    Term(
        "Depreciation life",
        "the years a purchase is paid off over; a shorter life makes every owned GPU-hour dearer "
        "(4 to 6 years are published for GPU servers).",
        ("depreciation",),
    ),
    Term(
        "Cost of capital",
        "the interest a buyer pays (or forgoes) on the money a purchase ties up, a share a year.",
    ),
    Term(
        "Utilisation (owned fleet)",
        "the share of its hours an owned fleet is in use; its fixed costs spread over those hours only.",
        ("utilization",),
    ),
    Term("USD, $", "US dollars; $/GPU-hour is the rent of one GPU for an hour.", ("USD", "US")),
    Term(
        "kWh, MWh, GWh",
        "energy: a thousand, a million, a billion watt-hours.",
        ("kWh", "MWh", "GWh"),
    ),
    Term("Household-years", "the energy one average household uses in a year, to give MWh a scale."),
    Term(
        "Score, vs best",
        "how a system ranks: its cost (or time, energy) against the best system's, after the rules' "
        'bonuses and penalties; "best" is the winner, "12% behind" means the best\'s score is 12% lower.',
    ),
    Term(
        "x% cheaper, sooner, behind",
        'every gap is a share of the worse figure: "b300 is 5.1% cheaper than gb300-nvl72" means it '
        "costs 5.1% less than gb300-nvl72; each says what it is a gap in (cost, time, energy, score) and "
        "against which system.",
        ("cheaper", "sooner", "behind"),
    ),
    Term(
        "bonus / penalty 10%",
        "a rule that makes a system's score 10% better (bonus, a prefer rule) or 10% worse (penalty, "
        "a penalize rule).",
    ),
    Term(
        "Rule weight",
        "what the rules multiply a system's score by: x1.00 leaves it, x1.10 is a 10% penalty, x0.90 a 10% "
        "bonus. The lowest score wins, so a weight can put a slightly dearer system first.",
        ("rule weights",),
    ),
    Term("warn / note", "a caveat or a remark a rule adds; it does not change the ranking."),
    Term(
        "Clear / close call",
        f"how sure the pick is. Clear: the winner leads the runner-up by more than {CLOSE_MARGIN:.0%} on "
        f"your objective, rule weights included, and stays best in at least {ROBUST_SHARE:.0%} of the "
        "samples. Close call: it does not, so the two are near enough for other things to matter: the "
        "verdict says what else separates them, for you to weigh (the pick stays the score's).",
        ("Clear", "Close call", "close call"),
    ),
    Term(
        "What else separates them",
        "in a close call, what the objective leaves out, in this order: maturity (the more proven "
        "system), slack (more time to spare before the deadline), lead time (GPUs sooner); a difference "
        f"under {MIN_SLACK_HOURS:g} hours does not count. For you to weigh: the pick stays the one the "
        "score ranks first (the JSON calls these tie_breakers).",
        ("what else separates them", "nothing else separates them", "slack"),
    ),
    Term(
        "Maturity: mature / established / new",
        "how proven a system is for training. Mature: two years or more in production, with published "
        "multi-week runs on thousands of its GPUs; established: published training on 512 GPUs or more; "
        "new: no published run at that scale yet.",
        ("maturity",),
    ),
    Term(
        "Wins N% of samples",
        "robustness: the uncertain inputs (MFU, prices, failures) are drawn at random many times within "
        "their ranges; this is the share of the draws in which the winner stays the best.",
        ("samples", "robustness", "Robustness"),
    ),
    Term(
        "Break-even",
        "the value an input (a price, the MFU, the electricity price) would have to reach for the "
        "runner-up to tie with the winner: how far the answer is from flipping. One close to today's "
        "value means the choice is fragile.",
        ("break-even", "Break-even", "break-evens"),
    ),
    Term(
        "Sensitivity, tornado",
        "which inputs move the winner's cost and time most: each bar moves one input across its range "
        "with the others held.",
        ("Sensitivity", "tornado"),
    ),
    Term(
        "Assumption, derived price",
        "a figure no publication gives: our estimate (marked [A] in its source), or a price worked out "
        "from another (a published on-demand price less an assumed discount). Get a quote before "
        "deciding on it.",
        ("assumption", "derived", "[A]"),
    ),
    Term(
        "On demand / reserved",
        "rental prices: on demand is by the hour with no commitment; reserved is cheaper for committing "
        "to a term (30 days, a year).",
        ("on-demand", "reserved"),
    ),
    Term(
        "Sizing margin",
        "sizing to the deadline, the share of it kept spare: 0.1 plans the run to finish by 90% of it.",
    ),
    Term("Feasible", "fits in memory, meets the deadline, budget and capacity you gave."),
    Term(
        "Wait, lead time",
        "how long before the GPUs can be had (rented capacity freed, or bought hardware delivered); it is "
        "added to the time to result.",
        ("Wait", "lead time"),
    ),
    Term("STALE", "the result shown is for the last accepted answers; an answer in red is not taken yet."),
    Term(
        "TTFT",
        "time to first token: how long a request waits before its answer starts (the prompt is read).",
    ),
    Term("TPOT", "time per output token: the pause between generated tokens once the answer streams."),
    Term(
        "KV cache",
        "the attention keys and values kept in GPU memory for every request being served; its number "
        "format sets how many requests fit.",
        ("KV",),
    ),
    Term(
        "Replicas × GPUs",
        "serving: copies of the model, each spread over this many GPUs; the fleet is their product.",
    ),
    Term(
        "Limited by",
        "serving: what caps a replica's batch (requests decoded together): memory, the TPOT or TTFT "
        "limit, or throughput (the target needs no more).",
    ),
    Term("Utilisation", "serving: the target rate over what the fleet can sustain."),
    Term(
        "Headroom",
        "serving at a target rate: the share of the fleet's capacity kept spare for bursts; 0.25 runs it "
        "at 75% of what it can sustain.",
        ("headroom",),
    ),
    Term(
        "Tensor-parallel",
        "one copy of the model split over several GPUs that work on every token together (a replica).",
        ("tensor parallel", "tensor-parallel"),
    ),
    Term(
        "Memory-bound / compute-bound",
        "what limits how fast a replica generates: reading the weights and cache from memory, or the "
        "arithmetic.",
        ("memory-bound", "compute-bound"),
    ),
    Term("$/1M tokens", "the cost of one million tokens trained on, or generated (out) or read (in)."),
    Term(
        "NVLink, NVL72",
        "NVIDIA's GPU-to-GPU links within a server or rack; NVL72 is a rack of 72 GPUs on one NVLink domain.",
        ("NVLink", "NVL72", "NVL8"),
    ),
    Term(
        "HGX, DGX, SXM, OAM",
        "server and module forms of the GPUs (NVIDIA's HGX boards and DGX servers, SXM and OAM modules).",
        ("HGX", "DGX", "SXM", "OAM"),
    ),
    Term("HBM", "high-bandwidth memory: the GPU's own memory; its size limits the model and batch."),
    Term("CPU", "the host processors of a server, counted in its power."),
    Term("CDNA", "AMD's data-centre GPU architecture; its compute units (CUs) are its cores.", ("CUs",)),
    Term("ROCm, CUDA", "AMD's and NVIDIA's GPU software stacks.", ("ROCm", "CUDA")),
    Term("MLPerf", "an industry benchmark of training and serving speed, with published results."),
    Term("LoRA", "low-rank adapters: fine-tuning a small add-on (about 1% of the weights) instead of all."),
    Term("MoE", "mixture of experts: a model using only some of its parameters (active) per token."),
)
"""Every term the app shows that a newcomer may not know."""


def glossary_markdown() -> str:
    """The glossary as a Markdown list (the help screen's "What the terms mean")."""
    return "\n".join(f"- **{term.name}**: {term.meaning}" for term in GLOSSARY)


def explained_words() -> set[str]:
    """Every word on screen the glossary explains (names split at `,` and `/`, and their forms)."""
    words: set[str] = set()
    for term in GLOSSARY:
        for part in term.name.replace("/", ",").split(","):
            words.add(part.strip().split(":")[0].strip())
        words.update(term.shown_as)
    return words


def meanings_in(text: str) -> str:
    """What the glossary says of the terms in `text` (a question's label), one per line, for the mouse:
    `FP8 stack: whether your software trains in FP8; ...`. Empty when it names none."""
    found = []
    for term in GLOSSARY:
        words = {p.strip().split(":")[0].strip() for p in term.name.replace("/", ",").split(",")}
        words.update(term.shown_as)
        if any(w and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w in words):
            found.append(f"{term.name}: {term.meaning}")
    return "\n".join(found)
