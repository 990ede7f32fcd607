"""What an empty field says (its greyed placeholder): the value that applies when it is left blank, or
that it is required. Pure: no Textual."""

from __future__ import annotations

from advisor.core.model.catalog import Catalog, Precision
from advisor.core.model.released import ReleasedWeights
from advisor.core.model.serving_plan import as_released, serving_precisions, serving_targets
from advisor.core.model.units import format_si
from advisor.core.model.workload import PRECISION_LABELS
from advisor.core.scenario import Scenario
from advisor.errors import AdvisorError
from advisor.tui.answers import AnswerError, applicable, apply_answer
from advisor.tui.questions import DECLARED, QUESTION_BY_KEY
from advisor.tui.required import required_placeholder


def placeholders(catalog: Catalog, scenario: Scenario) -> dict[str, str]:
    """Greyed text in empty fields that stand for a value: the catalog's (electricity, PUE) and, serving
    at a target rate, the TPOT limit and headroom the core applies when none is given. Other blank fields
    show their declaration's word for blank ("none")."""
    econ = catalog.economics
    return {
        "electricity_usd_per_kwh": f"{econ.electricity.usd_per_kwh:g} (catalog)",
        "pue": f"{econ.facility.pue:g} (catalog)",
        **_serving_defaults(scenario, catalog),
        **_required(scenario, catalog),
    }


NO_RATE = "none: no rate"
"""The headroom field left blank by a job without a target rate: there is no fleet to keep spare."""
MONTH_AT_RATE = "a month at rate"
"""A blank Tokens at a target rate: a month of serving at it (the declaration's words, cut to fit)."""
BATCH = "none: batch job"
"""A blank rate (neither tokens/s nor requests/s): the job generates its Tokens, with no fleet to size."""


def _serving_defaults(scenario: Scenario, catalog: Catalog) -> dict[str, str]:
    """`default: 100 ms`, `default: 0.25`: what the core's `serving_targets` holds a blank TPOT limit and
    headroom to (the `[serving]` defaults of catalog/economics.toml), from the same call; the rate that
    requests/s make (`50k from req/s`); a batch job's blank rate. Each fits the field at 80 columns."""
    spec = scenario.workload
    if spec.kind != "inference":
        return {}
    try:
        targets = serving_targets(spec.workload(catalog), catalog.economics.serving)
    except (AdvisorError, ValueError):  # not a workload yet: the form shows the declared blanks
        return {}
    released = as_released(spec.model_spec(catalog), spec)
    weights = released.precision if released else spec.weight_precision or spec.precision
    found = {
        "weight_precision": _weights_default(released, weights),
        "kv_cache_precision": _kv_default(weights),
    }
    rate = targets.tokens_per_second
    if rate is None:
        found |= dict.fromkeys(("target_tokens_per_second", "requests_per_second"), BATCH)
        found["serving_headroom"] = NO_RATE
    else:
        found["serving_headroom"] = f"default: {targets.headroom:g}"
        found["target_tokens_per_second"] = f"{format_si(rate)} from req/s"
        found["tokens"] = MONTH_AT_RATE
    if targets.tpot_default and targets.tpot_s is not None:
        found["tpot_limit_ms"] = f"default: {targets.tpot_s * 1e3:g} {DECLARED['tpot_limit_ms'].meta.unit}"
    return found


def _required(scenario: Scenario, catalog: Catalog) -> dict[str, str]:
    """`enter e.g. 2048`: every text field that applies and that the app refuses blank, found by
    answering it blank (`apply_answer`, the check that refuses it), so no field is a special case."""
    found = {}
    for key, applies in applicable(scenario).items():
        if applies and QUESTION_BY_KEY[key].control == "text":
            try:
                apply_answer(scenario, catalog, key, "")
            except AnswerError:
                found[key] = required_placeholder(key, scenario.workload.kind)
    return found


def _weights_default(released: ReleasedWeights | None, weights: Precision) -> str:
    """The weights choice's default option: `default: as released, FP4 (MXFP4)` for a model whose release
    format the catalog states (no precision given), else `default: BF16 (as precision)`."""
    if released is not None:
        return f"default: as released, {released.label}"
    return f"default: {PRECISION_LABELS[weights]} (as precision)"


def _kv_default(weights: Precision) -> str:
    """The KV cache choice's default option: `default: BF16 (as weights)`, `default: FP8 where the GPU has
    FP4`: the core's `serving_precisions` (unset precisions follow the weights, FP8 for FP4 ones), on a GPU
    that multiplies in the weights' format (elsewhere BF16: `_precisions` in costing/serving.py; the
    option names no other choice, so typing "bf16" finds BF16, not the default)."""
    kv_cache = serving_precisions(weights, None, None).kv_cache
    if kv_cache == "bf16":
        return "default: BF16 (as weights)"
    return f"default: {PRECISION_LABELS[kv_cache]} where the GPU has {PRECISION_LABELS[weights]}"
