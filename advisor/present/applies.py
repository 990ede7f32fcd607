"""Which inputs apply to a job: the app hides the questions about another kind of job, and the report
leaves them out of its inputs table (a serving job has no training stack, no fine-tune method)."""

from __future__ import annotations

JOB_KINDS: dict[str, tuple[str, ...]] = {
    "finetune_method": ("finetune",),
    "mfu": ("pretrain", "finetune"),
    "efficiency": ("pretrain", "finetune"),
}
"""Inputs about some kinds of job only: the input's name, the kinds it applies to."""


def job_applies(name: str, kind: str) -> bool:
    """Whether the input `name` applies to a job of `kind` (every input not in `JOB_KINDS` does)."""
    return kind in JOB_KINDS.get(name, (kind,))
