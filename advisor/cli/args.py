"""Command-line flags shared by `estimate`, `recommend`, `report` and `sensitivity`, and how they
combine with a scenario file into a `Scenario` (flags given override the file).

The flags of declared inputs (`advisor.core.scenario.INPUTS`) are derived from their declaration,
the per-system maps (`--mfu`, `--owned h100=1024`) among them; the model flags are written here.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from advisor.core import fmt
from advisor.core.model.assumptions import SetEfficiency
from advisor.core.model.inputs import (
    ALL_SYSTEMS,
    DeclaredInput,
    Limits,
    UnreadNumber,
    field_limits,
    format_bound,
    limits_of,
    number_kind,
    parse_amount,
    system_pairs,
    unnamed_system,
)
from advisor.core.model.units import WRITTEN_LIKE, DecimalCommaError
from advisor.core.scenario import INPUTS, CustomModel
from advisor.errors import UsageError, shown


def number(
    flag: str, limits: Limits, *, integer: bool = False, example: str = "", unit: str = ""
) -> Callable[[str], float | int]:
    """An argparse `type` that reads human numbers (70B, 15T, $2.10 for money, 50% for a fraction) and
    checks the range; a refusal says what the flag accepts, in the words the app uses (`a whole number
    from 1 to 1M`)."""
    kind = number_kind(unit, limits)
    accepted = limits.describe(integer)
    large = limits.high is None or limits.high >= 1e3
    written = f", e.g. {example}" if example else f", written like {WRITTEN_LIKE[kind]}" if large else ""

    def convert(text: str) -> float | int:
        given = shown(repr(text))
        try:
            value = parse_amount(text, kind)
        except DecimalCommaError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        except ValueError as exc:
            why = str(exc) if isinstance(exc, UnreadNumber) else f"{given} is not a number"
            raise argparse.ArgumentTypeError(f"{why}; must be {accepted}{written}") from None
        if not limits.allows(value):
            reads = format_bound(value)
            said = "" if reads == text.strip() else f" (it reads as {reads})"
            raise argparse.ArgumentTypeError(f"{given} is out of range{said}: must be {accepted}")
        if integer:
            if not float(value).is_integer():
                raise argparse.ArgumentTypeError(f"{given} must be {accepted}")
            return int(value)
        return value

    convert.__name__ = flag
    return convert


def validated(flag: str, annotation: Any) -> Callable[[str], Any]:
    """An argparse `type` that validates text against a field's type (a release month, say)."""

    def convert(text: str) -> Any:
        from pydantic import TypeAdapter, ValidationError  # imported and built only when the flag is given

        try:
            return TypeAdapter(annotation).validate_python(text)
        except ValidationError as exc:
            from advisor.io.field_errors import problem

            raise argparse.ArgumentTypeError(problem(exc.errors(include_url=False)[0])) from None

    convert.__name__ = flag
    return convert


def per_system(item: DeclaredInput) -> Callable[[str], dict[str, float | int]]:
    """An argparse `type` for a per-system map: `h100=1024, b200=72`, or one value for every system."""
    check = number(item.meta.flag, item.limits, integer=item.value_kind == "integer", unit=item.meta.unit)

    def convert(text: str) -> dict[str, float | int]:
        try:
            pairs = system_pairs(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        found = {}
        for system, value in pairs.items():
            if system == ALL_SYSTEMS and not item.meta.every_system:
                raise argparse.ArgumentTypeError(unnamed_system(value))
            try:
                found[system] = check(value)
            except argparse.ArgumentTypeError as exc:
                where = "" if system == ALL_SYSTEMS else f"{system}: "
                raise argparse.ArgumentTypeError(f"{where}{exc}") from None
        return found

    convert.__name__ = item.meta.flag
    return convert


def _help(item: DeclaredInput) -> str:
    """The flag's help: the declared hint, and the default (or what a check flag says)."""
    return _help_text(item).replace("%", "%%")  # argparse formats help with %


def _help_text(item: DeclaredInput) -> str:
    if item.kind == "check":
        return f"{item.meta.hint} (this flag: {'no' if item.default else 'yes'})"
    if item.kind == "per_system":
        each = item.limits.describe(item.value_kind == "integer")
        return f"{item.meta.hint} (each {each}; repeatable)"
    hint = " ".join((item.meta.hint, *(f"{label}." for label in item.explained_choices())))
    if item.default is None:
        return hint
    default = f"{item.default:g}" if isinstance(item.default, float) else item.default
    return f"{hint} (default {default})"


def add_input_flag(group: argparse._ArgumentGroup, item: DeclaredInput) -> None:
    """The flag of one declared input: a switch, a choice, a number in range, or validated text."""
    flag = item.meta.flag
    if item.kind == "check":
        group.add_argument(flag, dest=item.dest, action="store_true", default=None, help=_help(item))
    elif item.kind == "choice":
        group.add_argument(flag, dest=item.dest, choices=item.choices, help=_help(item))
    elif item.kind == "text":
        group.add_argument(flag, dest=item.dest, type=validated(flag, item.annotation), help=_help(item))
    elif item.kind == "per_system":
        metavar = "SYSTEM=N" if not item.meta.every_system else "[SYSTEM=]N"
        group.add_argument(
            flag, dest=item.dest, type=per_system(item), action="append", metavar=metavar, help=_help(item)
        )
    else:
        convert = number(flag, item.limits, integer=item.kind == "integer", unit=item.meta.unit)
        group.add_argument(flag, dest=item.dest, type=convert, help=_help(item))


def _add_declared(group: argparse._ArgumentGroup, tables: tuple[str, ...]) -> None:
    for item in INPUTS.values():
        if item.table in tables:
            add_input_flag(group, item)


def add_scenario_inputs(parser: argparse.ArgumentParser, *, constraints: bool = True) -> None:
    """The scenario file argument, the workload flags and (unless `constraints` is False) the constraints."""
    add_scenario_argument(parser)
    add_workload_flags(parser)
    if constraints:
        add_constraint_flags(parser)


def add_scenario_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", nargs="?", help="a scenario file (TOML); flags given as well override it")


def add_workload_flags(parser: argparse.ArgumentParser) -> None:
    """Flags describing the workload and assumption overrides."""
    g = parser.add_argument_group("workload")
    g.add_argument(
        "--model",
        help="model preset id (e.g. llama3-70b; see `advisor models`), or a Hugging Face config.json",
    )
    size = field_limits(CustomModel, "params")
    g.add_argument(
        "--params",
        type=number("--params", size, example="13e9"),
        help="custom model: total parameters (e.g. 13e9, 70B)",
    )
    g.add_argument(
        "--active-params",
        type=number("--active-params", size),
        help="custom MoE model: active parameters per token",
    )
    for name, what in (("layers", "layers"), ("hidden", "hidden size")):
        limits = field_limits(CustomModel, name)
        g.add_argument(
            f"--{name}", type=number(f"--{name}", limits, integer=True), help=f"custom model: {what}"
        )
    _add_declared(g, ("workload",))
    a = parser.add_argument_group("assumption overrides")
    fraction = limits_of(SetEfficiency)
    a.add_argument(
        "--goodput", type=number("--goodput", fraction), help="fixed goodput in [0.001, 1]; 1 = no downtime"
    )
    _add_declared(a, ("assumptions",))


def add_constraint_flags(parser: argparse.ArgumentParser) -> None:
    """Flags for the constraints and the objective."""
    _add_declared(parser.add_argument_group("constraints"), ("", "constraints"))


def _overlay_inputs(args: argparse.Namespace, data: dict[str, Any], system: str | None) -> None:
    """Every declared input whose flag was given, set in the scenario data. A per-system flag adds to
    the file's map; its value for every system applies to `system` alone when one is named."""
    for item in INPUTS.values():
        value = getattr(args, item.dest, None)
        if value is None:
            continue
        table = data[item.table] if item.table else data
        if item.kind == "per_system":
            value = dict(table.get(item.name, {})) | _flag_pairs(item, value, system)
        table[item.name] = (not item.default) if item.kind == "check" else value


def _flag_pairs(item: DeclaredInput, given: list[dict[str, Any]], system: str | None) -> dict[str, Any]:
    """A repeated per-system flag's pairs as one map; a system given twice (`--mfu h100=0.5 --mfu
    h100=0.6`) is refused rather than the last value kept."""
    pairs: dict[str, Any] = {}
    for found in given:
        for key, v in found.items():
            key = system or ALL_SYSTEMS if key == ALL_SYSTEMS else key
            if key in pairs:
                what = "one value for every system" if key == ALL_SYSTEMS else f"{key!r}"
                raise UsageError(
                    f"{item.meta.flag} gives {what} twice ({pairs[key]:g} and {v:g}): give it once"
                )
            pairs[key] = v
    return pairs


def scenario_data_from_args(
    args: argparse.Namespace, base: dict[str, Any] | None, *, system: str | None
) -> dict:
    """Scenario data: `base` (from a file) with every flag the user gave laid over it."""
    data: dict[str, Any] = {
        "schema": 1,
        "name": "",
        "workload": {},
        "constraints": {},
        "assumptions": {},
    }
    if base:
        data = {**data, **base}
        for key in ("workload", "constraints", "assumptions"):
            data[key] = dict(base.get(key, {}))
    w, a = data["workload"], data["assumptions"]
    _overlay_model(args, w)
    _overlay_inputs(args, data, system if system and system != "all" else None)
    if getattr(args, "goodput", None) is not None:
        a["goodput"] = args.goodput
    if not {"model", "custom", "model_config"} & w.keys():
        raise UsageError("which model? give --model <preset> or --params <count> (or a scenario file)")
    if "tokens" not in w and not serving_rate_given(w):
        raise UsageError(
            "how many tokens? give --tokens (e.g. 15T, 300e9); to serve at a rate, give --kind inference "
            "and --target-tokens-per-second or --requests-per-second (a month of serving)"
        )
    if not (base and base.get("name")):
        data["name"] = _name_from_workload(w)
    return data


def _overlay_model(args: argparse.Namespace, w: dict[str, Any]) -> None:
    """The model flags laid over the workload `w`: a preset or config.json, or a custom model."""

    def given(name: str) -> bool:
        return getattr(args, name, None) is not None

    if given("model") and given("params"):
        raise UsageError(
            "--model names a preset or a config.json, --params describes a custom model: give one, not both"
        )
    if given("model"):
        for key in ("custom", "model", "model_config"):
            w.pop(key, None)
        if args.model.endswith(".json"):  # a Hugging Face config.json, read by the scenario loader
            w["model_config"] = str(Path(args.model).expanduser().resolve())
        else:
            w["model"] = args.model
    if given("params"):
        w.pop("model", None)
        w.pop("model_config", None)
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


def serving_rate_given(workload: dict[str, Any]) -> bool:
    """A serving job with a target rate: it needs no token count (it is a month of serving)."""
    rate = workload.get("target_tokens_per_second") or workload.get("requests_per_second")
    return workload.get("kind") == "inference" and rate is not None


def _name_from_workload(w: dict[str, Any]) -> str:
    """A scenario made from flags is named by its job: 'llama3-70b pretrain, 15T tokens', or serving at a
    rate 'llama3-70b serving, 50k tokens/s'."""
    if "model" in w:
        model = str(w["model"])
    elif "model_config" in w:
        model = Path(str(w["model_config"])).parent.name or "config.json model"
    else:
        params = w.get("custom", {}).get("params")
        model = f"{fmt.count(params)}-parameter model" if isinstance(params, int | float) else "custom model"
    if serving_rate_given(w):
        rate, unit = w.get("target_tokens_per_second"), "tokens/s"
        if rate is None:
            rate, unit = w.get("requests_per_second"), "requests/s"
        amount = fmt.count(rate) if isinstance(rate, int | float) else str(rate)
        return f"{model} serving, {amount} {unit}"
    tokens = w.get("tokens")
    amount = fmt.count(tokens) if isinstance(tokens, int | float) else str(tokens)
    return f"{model} {w.get('kind', 'pretrain')}, {amount} tokens"
