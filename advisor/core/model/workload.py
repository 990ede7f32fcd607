"""What the user wants to run (`Workload`); the limits on it (`Constraints`) are in `constraints.py`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from advisor.core.model.catalog import Frozen, ModelSpec, Precision
from advisor.core.model.constraints import Constraints as Constraints
from advisor.core.model.constraints import Risk as Risk
from advisor.core.model.input_types import HumanCount, HumanPositive, LatencyLimitMs, RequestTokens
from advisor.core.model.inputs import Input, read_signs
from advisor.core.model.serving_rate import MAX_TOKENS, MAX_TOKENS_PER_SECOND, given_number, target_rate
from advisor.core.model.sourced import Release
from advisor.core.model.units import HOURS_PER_MONTH, SECONDS_PER_HOUR, human_number

Kind = Literal["pretrain", "finetune", "inference"]
Pricing = Literal["rent", "own"]
Objective = Literal["cost", "time", "energy", "balanced"]
FinetuneMethod = Literal["full", "lora"]
Efficiency = Literal["reference", "production"]

SERVING_PERIOD_HOURS = HOURS_PER_MONTH
"""A serving job at a target rate is costed for a month (730 hours, a twelfth of 365 days)."""
PRECISION_LABELS = {"bf16": "BF16", "fp8": "FP8", "fp4": "FP4"}
"""Each number format as a choice is shown (the training precision and the three of serving)."""
RENT_OWN = {"rent": "cloud hire lease hourly", "own": "buy purchase TCO on-premises"}
"""Other words that find renting or owning in the app's list (`buy`: own)."""


class WorkloadInputs(Frozen):
    """The workload's inputs besides the model: shared by the core `Workload` and the scenario's."""

    _signs = field_validator("*", mode="before")(read_signs)

    tokens: Annotated[
        float | None,
        BeforeValidator(human_number),
        Field(
            ge=1,
            le=MAX_TOKENS,
            allow_inf_nan=False,
            description="Tokens trained (or generated, for inference). Not used when serving at a target "
            "rate: that job is a month of serving at the rate.",
        ),
        Input(
            "Tokens",
            "Tokens to train or generate: 15T, 1.5e12, or dataset x epochs: 5T x 3 (serving at a target "
            "rate: not needed, a month)",
            "tokens",
            blank="a month at the target rate",
            applies=("no_rate",),
        ),
    ] = None
    gpus: Annotated[
        HumanCount,
        Field(gt=0, le=1_000_000, description="GPUs in the cluster."),
        Input(
            "GPUs",
            "GPUs in the cluster, e.g. 2048 or 2k",
            "GPUs",
            fact=True,
            applies=("fixed_gpus", "no_rate"),
        ),
    ] = 8
    precision: Annotated[
        Precision,
        Field(description="Training number format requested."),
        Input(
            "Precision",
            "Training number format; FP4 runs FP8, FP8 runs BF16 where unsupported",
            choice_labels=PRECISION_LABELS,
            fact=True,
        ),
    ] = "bf16"
    kind: Annotated[
        Kind,
        Field(description="What the job is."),
        Input(
            "Job",
            "Pretrain, fine-tune, or serve (inference: tokens generated)",
            choice_labels={"finetune": "fine-tune"},
            choice_words={"pretrain": "training", "finetune": "SFT finetuning", "inference": "serving"},
            fact=True,
        ),
    ] = "pretrain"
    pricing: Annotated[
        Pricing,
        Field(description="Rent by the GPU-hour, or own the hardware (total cost of ownership)."),
        Input("Rent or own", "Rent by the GPU-hour, or buy and own (TCO)", fact=True, choice_words=RENT_OWN),
    ] = "rent"
    software: Annotated[
        Release | None,
        Field(description="Software release month YYYY-MM; None = latest."),
        Input(
            "Software release",
            "Software release month for MFU, e.g. 2024-01; default: the latest published",
            asked_in_app=False,
            applies=("release_month",),
        ),
    ] = None
    fp8_stack: Annotated[
        bool,
        Field(description="Whether the team's software stack supports FP8."),
        Input(
            "FP8 stack",
            "Whether our software stack runs FP8 (else FP8 runs as BF16)",
            flag="--no-fp8-stack",
            check_label="we support FP8",
            fact=True,
            applies=("low_precision",),
        ),
    ] = True
    finetune_method: Annotated[
        FinetuneMethod,
        Field(description="Fine-tuning: all weights, or LoRA adapters."),
        Input(
            "Fine-tune how",
            "Fine-tune: all weights, or LoRA adapters (1% trainable)",
            choice_labels={"lora": "LoRA"},
            applies=("finetune",),
        ),
    ] = "full"
    lora_trainable_fraction: Annotated[
        float,
        BeforeValidator(human_number),
        Field(gt=0, le=1, description="LoRA: trainable parameters as a fraction of the model's."),
        Input(
            "LoRA trainable share",
            "LoRA: trainable parameters as a fraction of the model's",
            asked_in_app=False,
            applies=("lora",),
        ),
    ] = 0.01
    prompt_tokens: Annotated[
        RequestTokens,
        Field(description="Inference: prompt tokens per request (default: a chat turn)."),
        Input("Prompt tokens", "Inference: prompt tokens per request", "tokens", applies=("inference",)),
    ] = 500
    output_tokens: Annotated[
        RequestTokens,
        Field(description="Inference: generated tokens per request."),
        Input("Output tokens", "Inference: generated tokens per request", "tokens", applies=("inference",)),
    ] = 500
    serving_batch: Annotated[
        HumanCount | None,
        Field(
            gt=0,
            le=100_000,
            description="Inference: most requests decoded together per replica (None: as the limits allow).",
        ),
        Input(
            "Serving batch",
            "Inference: most requests decoded together per replica; default: as many as memory and "
            "the latency limits allow",
            "requests",
            asked_in_app=False,
            blank="chosen",
            applies=("inference",),
        ),
    ] = None
    target_tokens_per_second: Annotated[
        HumanPositive | None,
        Field(
            le=MAX_TOKENS_PER_SECOND,
            description="Inference: generated tokens per second to sustain (sizes the fleet).",
        ),
        Input(
            "Target tokens/s",
            "Inference: generated tokens per second to sustain (reports the GPUs needed), e.g. 50k",
            "tokens/s",
            applies=("inference",),
        ),
    ] = None
    requests_per_second: Annotated[
        HumanPositive | None,
        Field(
            le=10_000_000,
            description="Inference: requests per second to sustain (x output tokens: the rate target).",
        ),
        Input(
            "Target requests/s",
            "Inference: requests per second to sustain, of the prompt and output lengths given",
            "requests/s",
            applies=("inference", "no_token_rate"),
        ),
    ] = None
    ttft_limit_ms: Annotated[
        LatencyLimitMs,
        Field(description="Inference: most milliseconds to the first token of a request."),
        Input(
            "TTFT limit",
            "Inference: time to first token may not exceed, in ms (e.g. 2000; MLPerf interactive 450)",
            "ms",
            blank="none",
            applies=("inference",),
        ),
    ] = None
    tpot_limit_ms: Annotated[
        LatencyLimitMs,
        Field(description="Inference: most milliseconds per output token after the first."),
        Input(
            "TPOT limit",
            "Inference: time per output token may not exceed, in ms (e.g. 200; MLPerf interactive 40)",
            "ms",
            blank="none",
            applies=("inference",),
        ),
    ] = None
    serving_headroom: Annotated[
        Annotated[float, BeforeValidator(human_number), Field(ge=0, le=0.9)] | None,
        Field(description="Inference: share of the fleet's capacity kept spare at the target rate."),
        Input(
            "Headroom",
            "Inference: share of the fleet's capacity kept spare at the target rate for bursts: 0.25 "
            "runs it at 75%; 0 sizes it to the rate exactly; blank: the catalog's default",
            "fraction",
            blank="default",
            applies=("rate",),
        ),
    ] = None
    weight_precision: Annotated[
        Precision | None,
        Field(description="Inference: the stored weights' number format (None: as released, or the run's)."),
        Input(
            "Weights precision",
            "Inference: number format of the weights; default: as released, else the precision above",
            choice_labels=PRECISION_LABELS,
            applies=("inference",),
        ),
    ] = None
    kv_cache_precision: Annotated[
        Precision | None,
        Field(
            description="Inference: number format of the KV cache (None: the format the products run at: "
            "the weights', FP8 below FP8, BF16 on a GPU that cannot multiply in it)."
        ),
        Input(
            "KV cache precision",
            "Inference: number format of the KV cache; default: the weights' (FP8 for FP4 weights), BF16 "
            "on a GPU that cannot multiply in that format",
            choice_labels=PRECISION_LABELS,
            applies=("inference",),
        ),
    ] = None
    activation_precision: Annotated[
        Precision | None,
        Field(
            description="Inference: number format the matrix products run in (None: the weights', FP8 below)."
        ),
        Input(
            "Activations precision",
            "Inference: number format of the compute; default: the weights' (FP8 for FP4 weights)",
            choice_labels=PRECISION_LABELS,
            asked_in_app=False,
            applies=("inference",),
        ),
    ] = None
    efficiency: Annotated[
        Efficiency,
        Field(
            description="How tuned the training stack is: a vendor-tuned recipe or a team's production run."
        ),
        Input(
            "Training stack",
            "How tuned is your training stack?",
            choice_labels={
                "reference": "reference: a vendor-tuned recipe, as in published benchmarks",
                "production": "production: a team's end-to-end run, with evaluations, checkpoints, "
                "data stalls and restarts",
            },
            applies=("training",),
        ),
    ] = "production"
    global_batch: Annotated[
        HumanCount | None,
        Field(
            gt=0,
            le=10_000_000,
            description="Training: sequences per optimizer step (None: grown with the cluster, as published "
            "scaling tables do).",
        ),
        Input(
            "Global batch",
            "Training: sequences per optimizer step (Megatron/NeMo global_batch_size), e.g. 1024; blank: "
            "grown with the cluster, as in published scaling tables. Fewer sequences than model replicas "
            "split each one over more GPUs, which runs slower per GPU",
            "sequences",
            asked_in_app=False,
            blank="grown with the cluster",
            applies=("training",),
        ),
    ] = None


NO_TOKENS = (
    "tokens: how many tokens? give the tokens to train or generate (e.g. 15T, 300e9); a serving job "
    "(kind = inference) may give a target rate instead (target_tokens_per_second or requests_per_second)"
)
"""The message when a job names neither its tokens nor a serving rate."""


class Workload(WorkloadInputs):
    """A training, fine-tuning or inference job: model, tokens, precision, scale and pricing.

    Serving at a target rate is a month of serving: tokens = rate x a month."""

    tokens: Annotated[float, BeforeValidator(human_number), Field(ge=1, le=MAX_TOKENS, allow_inf_nan=False)]
    model: ModelSpec

    @model_validator(mode="before")
    @classmethod
    def _month_of_serving(cls, data: Any) -> Any:
        """A serving job at a target rate is a month of serving: its tokens are what the rate generates
        in `SERVING_PERIOD_HOURS` (tokens given are not used); any other job must give its tokens."""
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        rate = target_rate(
            data.get("kind", fields["kind"].default),
            given_number(data.get("target_tokens_per_second")),
            given_number(data.get("requests_per_second")),
            int(given_number(data.get("output_tokens")) or fields["output_tokens"].default),
        )
        if rate is None:
            if data.get("tokens") is None:
                raise ValueError(NO_TOKENS)
            return data
        return {**data, "tokens": max(1.0, rate * SERVING_PERIOD_HOURS * SECONDS_PER_HOUR)}

    @property
    def serving_rate(self) -> float | None:
        """Generated tokens per second to sustain when serving to a target rate, else None."""
        return target_rate(
            self.kind, self.target_tokens_per_second, self.requests_per_second, self.output_tokens
        )
