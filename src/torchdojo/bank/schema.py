"""The shape of one bank entry, validated with pydantic.

An entry is a Markdown file ``bank/questions/<topic>/<id>.md``: YAML front matter validated
by :class:`FrontMatter`, then a Markdown body holding the full answer and its runnable
examples (fenced blocks whose info string starts ``python runnable``). The format is
documented for authors in ``docs/bank-format.md``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationInfo, field_validator, model_validator

from torchdojo.bank.taxonomy import NEEDS, TOPICS, Level, QuestionType

SLUG_RE = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Slug = Annotated[str, StringConstraints(pattern=SLUG_RE, min_length=3, max_length=80)]
CoverageId = Annotated[str, StringConstraints(pattern=r"^Q\d{3}$")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

#: What a strong candidate says in the first 20 seconds (about 150 spoken words a minute).
SHORT_ANSWER_MAX_WORDS = 60
#: One claim per key point: a longer one is two claims or a paragraph, and cannot be graded.
KEY_POINT_MAX_WORDS = 40


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class KeyPoint(_Strict):
    """A claim a strong answer must contain. ``weight`` 1 (nice to have) to 3 (essential)."""

    id: Slug = Field(description="short slug, unique within the entry, e.g. 'view-never-copies'")
    text: Text
    weight: int = Field(ge=1, le=3)
    #: Other ways a candidate may phrase the point (used by answer grading).
    phrasings: list[Text] = Field(default_factory=list)
    #: Statements that reverse the point as a wrong answer would say them: an entity swap, the
    #: opposite verb or direction, a wrong number (used by answer grading to tell a reversed
    #: claim from the point, which embed almost alike).
    contradictions: list[Text] = Field(default_factory=list)

    @field_validator("text")
    @classmethod
    def _one_claim(cls, v: str) -> str:
        if (n := len(v.split())) > KEY_POINT_MAX_WORDS:
            raise ValueError(f"key point of {n} words (at most {KEY_POINT_MAX_WORDS}): state one claim; "
                             "move detail to the body or split it into two points")
        return v

    @field_validator("contradictions")
    @classmethod
    def _not_the_point(cls, v: list[str], info: ValidationInfo) -> list[str]:
        said = {t.casefold() for t in [info.data.get("text") or "", *(info.data.get("phrasings") or [])]}
        same = [c for c in v if c.casefold() in said]
        if same:
            raise ValueError(f"a contradiction repeats the point or one of its phrasings: {same[0]!r}; "
                             "write a false statement that reverses the point instead")
        return v


class Misconception(_Strict):
    """A false statement a wrong answer typically makes, and the truth that corrects it."""

    claim: Text
    correction: Text


class FollowUp(_Strict):
    """A follow-up question: a link to another entry (``ref``), free text, or both."""

    ref: Slug | None = None
    text: Text | None = None
    #: ids of this entry's key points the follow-up probes (used to aim follow-ups at gaps).
    probes: list[Slug] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_of(self) -> FollowUp:
        if self.ref is None and self.text is None:
            raise ValueError("a follow-up needs 'ref' (another entry's id) or 'text' (a question)")
        return self


class Source(_Strict):
    title: Text
    url: Annotated[str, StringConstraints(pattern=r"^https://")]


class DesignRubric(_Strict):
    """Rubric for system-design entries: what a strong design discussion covers."""

    components: list[Text] = Field(min_length=1)
    trade_offs: list[Text] = Field(min_length=1)
    failure_modes: list[Text] = Field(min_length=1)
    #: back-of-the-envelope figures a strong candidate estimates, e.g. "7B params x 2 bytes = 14 GB".
    estimates: list[Text] = Field(default_factory=list)


class BehavioralRubric(_Strict):
    """Rubric for behavioral entries."""

    demonstrates: list[Text] = Field(min_length=1)
    star_outline: dict[str, Text]
    red_flags: list[Text] = Field(min_length=1)

    @field_validator("star_outline")
    @classmethod
    def _star_keys(cls, v: dict[str, str]) -> dict[str, str]:
        want = {"situation", "task", "action", "result"}
        if set(v) != want:
            raise ValueError(f"star_outline needs exactly the keys {sorted(want)}, got {sorted(v)}")
        return v


class FrontMatter(_Strict):
    """The YAML front matter of one entry. Field order is the order authors write them."""

    id: Slug
    title: Text
    level: Level
    type: QuestionType
    topics: list[str] = Field(min_length=1)
    coverage: list[CoverageId] = Field(default_factory=list)
    short_answer: Annotated[str, StringConstraints(strip_whitespace=True, min_length=20, max_length=700)]
    key_points: list[KeyPoint] = Field(min_length=3, max_length=7)
    misconceptions: list[Misconception] = Field(min_length=1)
    common_mistakes: list[Text] = Field(min_length=1)
    follow_ups: list[FollowUp] = Field(min_length=2)
    related: list[Slug] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)
    design_rubric: DesignRubric | None = None
    behavioral_rubric: BehavioralRubric | None = None

    @field_validator("follow_ups")
    @classmethod
    def _senior_goes_deeper(cls, v: list[FollowUp], info: ValidationInfo) -> list[FollowUp]:
        if info.data.get("level") == "senior" and not any(f.ref for f in v):
            raise ValueError("a senior entry needs at least one follow-up with a 'ref:' to the entry that goes "
                             "one level deeper (a senior loop always asks the next question)")
        return v

    @field_validator("short_answer")
    @classmethod
    def _twenty_seconds(cls, v: str) -> str:
        if (n := len(v.split())) > SHORT_ANSWER_MAX_WORDS:
            raise ValueError(f"short answer of {n} words (at most {SHORT_ANSWER_MAX_WORDS}, what is said in "
                             "20 seconds): lead with the answer, keep the depth in the body")
        return v

    @field_validator("topics")
    @classmethod
    def _known_topics(cls, v: list[str]) -> list[str]:
        unknown = [t for t in v if t not in TOPICS]
        if unknown:
            raise ValueError(
                f"unknown topic(s) {unknown}; use slugs from torchdojo.bank.taxonomy.TOPICS: "
                + ", ".join(TOPICS)
            )
        if len(set(v)) != len(v):
            raise ValueError("topics repeat")
        return v

    @field_validator("key_points")
    @classmethod
    def _unique_kp_ids(cls, v: list[KeyPoint]) -> list[KeyPoint]:
        ids = [k.id for k in v]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"key point ids repeat: {dup}")
        return v

    @model_validator(mode="after")
    def _rubrics_match_type(self) -> FrontMatter:
        if self.type == "system-design" and self.design_rubric is None:
            raise ValueError("type system-design needs a design_rubric (components, trade_offs, failure_modes)")
        if self.type == "behavioral" and self.behavioral_rubric is None:
            raise ValueError("type behavioral needs a behavioral_rubric (demonstrates, star_outline, red_flags)")
        kp_ids = {k.id for k in self.key_points}
        too_long = [k for k in kp_ids if len(self.id) + 1 + len(k) > 80]
        if too_long:
            raise ValueError(f"key point ids {sorted(too_long)} too long: '<entry id>#<key point id>' is a flashcard id "
                             "and must fit in 80 characters")
        for f in self.follow_ups:
            bad = [p for p in f.probes if p not in kp_ids]
            if bad:
                raise ValueError(f"follow-up probes unknown key point ids {bad}; known: {sorted(kp_ids)}")
        return self


class RunnableBlock(_Strict):
    """A fenced ``python runnable`` block of an entry's body.

    ``line`` is the 1-based line of the opening fence in the file; ``needs`` a subset of
    :data:`torchdojo.bank.taxonomy.NEEDS`; ``timeout`` seconds of wall time.
    """

    index: int
    line: int
    code: str
    needs: tuple[str, ...] = ("cpu",)
    timeout: float = 60.0

    @field_validator("needs")
    @classmethod
    def _known_needs(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        bad = [n for n in v if n not in NEEDS]
        if bad:
            raise ValueError(f"unknown needs {bad}; use {list(NEEDS)}")
        return v


