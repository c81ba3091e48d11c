"""Verdicts, named as programming-contest judges name them."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    ACCEPTED = "Accepted"
    WRONG_ANSWER = "Wrong Answer"
    RUNTIME_ERROR = "Runtime Error"
    TIME_LIMIT_EXCEEDED = "Time Limit Exceeded"
    MEMORY_LIMIT_EXCEEDED = "Memory Limit Exceeded"
    OUTPUT_LIMIT_EXCEEDED = "Output Limit Exceeded"
    COMPILATION_ERROR = "Compilation Error"
    RULE_VIOLATION = "Rule Violation"
    JUDGE_ERROR = "Judge Error"
    #: A test's status only (never a submission's verdict): an earlier test stopped the run.
    NOT_RUN = "Not Run"

    @property
    def short(self) -> str:
        return {"Accepted": "AC", "Wrong Answer": "WA", "Runtime Error": "RE", "Time Limit Exceeded": "TLE",
                "Memory Limit Exceeded": "MLE", "Output Limit Exceeded": "OLE", "Compilation Error": "CE",
                "Rule Violation": "RV", "Judge Error": "JE", "Not Run": "NR"}[self.value]


#: When several tests fail differently, the submission's verdict is the first of these found
#: in test order; a Judge Error anywhere makes the whole result a Judge Error (our fault).
SEVERITY = [Verdict.JUDGE_ERROR, Verdict.COMPILATION_ERROR, Verdict.RULE_VIOLATION]
