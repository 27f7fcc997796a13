"""Examples embedded in each rule: linted in tests and executed in torch.

Each snippet binds ``out`` (what the call returns) and ``expected`` (what the author meant,
computed with a plain loop). A bad example must be flagged with the rule's code and, in torch,
raise or give ``out`` different from ``expected``; a good one must be clean and match.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    bad: str
    good: str
    title: str = ""
