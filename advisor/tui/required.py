"""What a required question left blank says, in the app's words: the field as labelled on screen and
what to type in it (a scenario file's keys, `workload.tokens` or `target_tokens_per_second`, are not
words a user of the app has seen). Pure: no Textual."""

from __future__ import annotations

import re

from advisor.core.model.workload import NO_TOKENS
from advisor.tui.questions import QUESTION_BY_KEY

TOKENS_EXAMPLES = {
    "pretrain": ("to train on", "15T, or dataset × epochs: 5T x 3"),
    "finetune": ("to fine-tune on", "10B, or dataset × epochs: 2B x 3"),
    "inference": ("to generate", "300B"),
}
"""For each kind of job: what its tokens are, and answers to give as examples."""
_EXAMPLES = re.compile(r"e\.g\. ([^();]+?)\s*(?:[(;]|$)")


def examples(hint: str) -> str:
    """The examples a question's hint gives: `2048 or 2k` from `GPUs in the cluster, e.g. 2048 or 2k
    (a whole number …)`; empty when it gives none."""
    found = _EXAMPLES.search(hint)
    return found.group(1).rstrip(" ,") if found else ""


def blank_number(key: str, span: str) -> str:
    """`GPUs: enter a whole number from 1 to 1M, such as 2048 or 2k`: a required number left blank."""
    question = QUESTION_BY_KEY[key]
    number = span if span.startswith("a ") else f"a number {span}"
    such = examples(question.hint)
    return f"{question.title}: enter {number}" + (f", such as {such}" if such else "")


def tokens_needed(kind: str) -> str:
    """A job that names neither its tokens nor (serving) a rate: `Tokens to train on: enter a number
    such as 15T, …`; serving, the rate fields are named as the alternative."""
    what, such = TOKENS_EXAMPLES.get(kind, TOKENS_EXAMPLES["pretrain"])
    message = f"{QUESTION_BY_KEY['tokens'].title} {what}: enter a number such as {such}"
    if kind == "inference":
        rates = " or ".join(
            QUESTION_BY_KEY[key].title for key in ("target_tokens_per_second", "requests_per_second")
        )
        message += f"; or give a rate to serve in {rates} (a month of serving at it)"
    return message


def in_app_words(message: str, kind: str) -> str:
    """The core's message for an answer, with the one that names scenario keys said in the app's words."""
    return tokens_needed(kind) if message == NO_TOKENS else message


def required_placeholder(key: str, kind: str) -> str:
    """What an empty required field says: `enter e.g. 2048`, the first example its question gives
    (Tokens: the job's own, `15T` to train, `300B` to generate), else `required`. Short enough for the
    field at 80 columns (16 wide); the note under it says the rest."""
    such = TOKENS_EXAMPLES.get(kind, TOKENS_EXAMPLES["pretrain"])[1] if key == "tokens" else ""
    first = re.split(r",| or ", such or examples(QUESTION_BY_KEY[key].hint), maxsplit=1)[0].strip()
    return f"enter e.g. {first}" if first else "required"
