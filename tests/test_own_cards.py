"""Own cards, notes and bookmarks, and the card browser: the core on a real SQLite file, and the CLI
(Typer's CliRunner) over the same core. Every time is an explicit UTC datetime."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conftest import BANK
from fsrs import State
from sqlalchemy import select
from typer.testing import CliRunner

from torchdojo.practice.card_browser import PAGE_SIZE, CardQuery, CardQueryError, parse_query
from torchdojo.practice.flashcards import CardChangedError, UnknownEntryError
from torchdojo.practice.notes import MAX_NOTE_CHARS, NoteError, UnknownCardError
from torchdojo.practice.own_cards import OwnCardError, UnknownOwnCardError
from torchdojo.store.models import CardRow, NoteRow, ReviewLogRow

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


# -- own cards ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"front": "   "}, "front", "empty"),
    ({"front": "x" * 2001}, "front", "2,001 characters"),
    ({"front": "q", "back": "y" * 20001}, "back", "20,001"),
    ({"front": "q", "key_points": [f"p{i}" for i in range(13)]}, "key_points", "13 key points"),
    ({"front": "q", "key_points": ["ok", "z" * 301]}, "key_points", "key point 2 is 301"),
    ({"front": "q", "topic": "astrology"}, "topic", "unknown topic 'astrology'"),
    ({"front": "q", "level": "staff"}, "level", "unknown level 'staff'"),
])
def test_own_card_validation_names_the_field_and_saves_nothing(dojo, fields, field, words):
    with pytest.raises(OwnCardError) as e:
        dojo.own_cards.create(now=T0, **fields)
    assert e.value.field == field and words in str(e.value)
    assert dojo.own_cards.list_all() == []


def test_own_card_limits_are_inclusive_and_blank_key_points_are_dropped(dojo):
    c = dojo.own_cards.create("x" * 2000, "y" * 20000, ["a" * 300, "  ", *[f"p{i}" for i in range(11)]],
                              "autograd", "mid", now=T0)
    assert len(c.key_points) == 12 and c.topic == "autograd" and c.level == "mid"
    e = c.as_entry()
    assert [k.id for k in e.meta.key_points] == [f"kp{n}" for n in range(1, 13)]


def test_own_card_is_reviewed_like_a_bank_card_and_keeps_integrity(dojo):
    fc = dojo.flashcards
    first_new = fc.queue(now=T0)[0]
    c = dojo.own_cards.create("What does **detach** return?", "A tensor cut from the graph.",
                              ["shares storage"], "autograd", "junior", now=T0)
    assert c.card_id == "own:1"
    q = fc.queue(now=T0)
    assert q[0] == "own:1" and q[1] == first_new  # new own cards come before new bank cards
    assert fc.due_split(now=T0)[1] == fc.new_per_day
    entry, kp = fc.card("own:1")
    assert kp is None and entry.meta.title == c.front and entry.body == c.back
    st = fc.status("own:1", T0)
    assert st.is_new and set(fc.preview("own:1", T0)) == {"again", "hard", "good", "easy"}

    fc.review("own:1", "good", now=T0, seen="new")
    st = fc.status("own:1", T0 + timedelta(minutes=10))
    with pytest.raises(CardChangedError):  # a rating for the state before is refused
        fc.review("own:1", "good", now=T0 + timedelta(minutes=10), seen="new")
    fc.review("own:1", "good", now=T0 + timedelta(minutes=10), seen=st.version)
    st = fc.status("own:1", T0 + timedelta(minutes=10))
    assert not st.is_new and st.stability > 0 and "own:1" not in fc.queue(now=T0 + timedelta(minutes=11))
    assert "own:1" in fc.queue(now=st.due)  # due again like any card
    assert fc.check(repair=False) == []

    # a topic filter finds it; a level it does not have does not
    from torchdojo.practice.flashcards import Filters
    assert "own:1" in fc.queue(Filters(topic="autograd"), now=st.due)
    assert "own:1" not in fc.queue(Filters(level="senior"), now=st.due)

    # editing keeps the schedule; deleting removes card row, log and note together
    dojo.own_cards.update("own:1", "What does detach() return?", "Same storage, no graph.", [], None, None, now=T0)
    assert fc.status("own:1", T0).version == st.version
    dojo.notes.save("own:1", "remember this", now=T0)
    assert dojo.own_cards.delete("own:1") == 2
    with dojo.sessions() as s:
        assert s.scalars(select(CardRow).where(CardRow.question_id == "own:1")).first() is None
        assert s.scalars(select(ReviewLogRow).where(ReviewLogRow.question_id == "own:1")).first() is None
        assert s.get(NoteRow, "own:1") is None
    assert fc.check(repair=False) == []
    with pytest.raises(UnknownEntryError):
        fc.review("own:1", "good", now=T0)
    with pytest.raises(UnknownOwnCardError):
        dojo.own_cards.delete("own:1")
    with pytest.raises(UnknownOwnCardError):
        dojo.own_cards.get("own:abc")


# -- notes and bookmarks ------------------------------------------------------------------------
def test_notes_and_bookmarks_round_trip_on_every_kind_of_card(dojo):
    own = dojo.own_cards.create("front", now=T0)
    dojo.flashcards.add_key_point_cards("view-reshape-contiguous",
                                        [dojo.bank.get("view-reshape-contiguous").meta.key_points[0].id], now=T0)
    kp_card = next(i for i in dojo.flashcards.queue(now=T0) if "#" in i)
    for cid in ("view-reshape-contiguous", kp_card, own.card_id):
        n = dojo.notes.save(cid, "  my **note**  ", now=T0)
        assert n.text == "my **note**" and not n.bookmarked
        assert dojo.notes.toggle_bookmark(cid, now=T0).bookmarked
        assert dojo.notes.get(cid).text == "my **note**"
    with pytest.raises(NoteError):
        dojo.notes.save(own.card_id, "x" * (MAX_NOTE_CHARS + 1), now=T0)
    assert dojo.notes.get(own.card_id).text == "my **note**"  # nothing lost
    with pytest.raises(UnknownCardError):
        dojo.notes.save("no-such-entry", "x")
    with pytest.raises(UnknownCardError):
        dojo.notes.toggle_bookmark("own:999")
    dojo.notes.clear(own.card_id, now=T0)
    assert dojo.notes.get(own.card_id).text == "" and dojo.notes.get(own.card_id).bookmarked
    assert not dojo.notes.toggle_bookmark(own.card_id, now=T0).bookmarked
    with dojo.sessions() as s:  # no note and no bookmark: no row
        assert s.get(NoteRow, own.card_id) is None
    assert set(dojo.notes.all()) == {"view-reshape-contiguous", kp_card}


# -- the card browser ---------------------------------------------------------------------------
def _seed(dojo):
    """Reviews with explicit times: one bank card lapses twice, one is rated Again only while learning."""
    fc = dojo.flashcards
    t = T0
    fc.review("view-reshape-contiguous", "good", now=t)
    fc.review("view-reshape-contiguous", "good", now=t + timedelta(minutes=10))
    for _ in range(2):  # at each due date: Again (a lapse), then Good to get back to Review
        due = fc.status("view-reshape-contiguous", t).due
        fc.review("view-reshape-contiguous", "again", now=due)
        fc.review("view-reshape-contiguous", "good", now=due + timedelta(minutes=10))
        t = due + timedelta(minutes=10)
    fc.review("what-is-autograd", "again", now=T0)  # Again in Learning: not a lapse
    fc.review("what-is-autograd", "good", now=T0 + timedelta(minutes=1))
    own = dojo.own_cards.create("My own question about **tensors**", "answer", topic="tensors", level="junior", now=T0)
    return own, t


def test_browser_counts_lapses_from_the_log_and_filters_and_sorts(dojo):
    own, t = _seed(dojo)
    now = t + timedelta(hours=1)
    with dojo.sessions() as s:
        row = s.get(CardRow, "view-reshape-contiguous")
        assert row.state == State.Review  # after the last Good it is back in Review
    page = dojo.cards(CardQuery(sort="lapses", order="desc"), now=now)
    top = page.cards[0]
    assert (top.card_id, top.lapses, top.reviews, top.state) == ("view-reshape-contiguous", 2, 6, "review")
    auto = next(c for c in dojo.cards(CardQuery(q="what-is-autograd"), now=now).cards)
    assert (auto.lapses, auto.reviews) == (0, 2)
    assert page.total == len(dojo.bank) + 1 and page.pages == -(-page.total // PAGE_SIZE)
    assert len(page.cards) == PAGE_SIZE

    # sorts: reviewed cards first by their value, new cards (no value) last in either order
    by_reviews = dojo.cards(CardQuery(sort="reviews", order="desc"), now=now).cards
    assert [c.card_id for c in by_reviews[:2]] == ["view-reshape-contiguous", "what-is-autograd"]
    for sort in ("due", "stability", "difficulty", "retrievability"):
        for order in ("asc", "desc"):
            got = dojo.cards(CardQuery(sort=sort, order=order), now=now).cards
            vals = [getattr(c, sort) for c in got[:2]]
            assert None not in vals, (sort, order)
            assert vals == sorted(vals, reverse=order == "desc"), (sort, order)
            assert got[2].state == "new"
    ids = [c.card_id for c in dojo.cards(CardQuery(sort="id"), now=now).cards]
    assert ids == sorted(ids)

    # filters
    assert [c.card_id for c in dojo.cards(CardQuery(own=True), now=now).cards] == [own.card_id]
    assert [c.card_id for c in dojo.cards(CardQuery(q="OWN QUESTION"), now=now).cards] == [own.card_id]
    assert [c.card_id for c in dojo.cards(CardQuery(state="review"), now=now).cards] == ["view-reshape-contiguous"]
    learning = dojo.cards(CardQuery(state="learning"), now=T0 + timedelta(minutes=2)).cards
    assert "what-is-autograd" in [c.card_id for c in learning] and all(c.state == "learning" for c in learning)
    tensors = dojo.cards(CardQuery(topic="tensors", level="junior"), now=now).cards
    assert own.card_id in [c.card_id for c in tensors]
    assert all("tensors" in c.topics and c.level == "junior" for c in tensors)
    assert dojo.cards(CardQuery(bookmarked=True), now=now).total == 0
    dojo.notes.toggle_bookmark("what-is-autograd", now=now)
    assert [c.card_id for c in dojo.cards(CardQuery(bookmarked=True), now=now).cards] == ["what-is-autograd"]

    # suspended / buried come from the card row (set by the study tools)
    with dojo.sessions.begin() as s:
        s.get(CardRow, "what-is-autograd").suspended = True
        s.get(CardRow, "view-reshape-contiguous").buried_until = now + timedelta(hours=3)
    assert [c.card_id for c in dojo.cards(CardQuery(state="suspended"), now=now).cards] == ["what-is-autograd"]
    assert [c.card_id for c in dojo.cards(CardQuery(state="buried"), now=now).cards] == ["view-reshape-contiguous"]
    assert dojo.cards(CardQuery(state="buried"), now=now + timedelta(hours=4)).total == 0

    # key-point cards that exist are listed
    kp = dojo.bank.get("what-is-autograd").meta.key_points[0].id
    dojo.flashcards.add_key_point_cards("what-is-autograd", [kp], now=now)
    kps = dojo.cards(CardQuery(q=f"what-is-autograd#{kp}"), now=now).cards
    assert [(c.kind, c.state) for c in kps] == [("key point", "learning")]


@pytest.mark.parametrize(("params", "field"), [
    ({"state": "lapsed"}, "state"), ({"topic": "astrology"}, "topic"), ({"level": "staff"}, "level"),
    ({"sort": "title"}, "sort"), ({"order": "up"}, "order"), ({"page": "0"}, "page"), ({"page": "two"}, "page"),
    ({"bookmarked": "maybe"}, "bookmarked"), ({"q": "x" * 201}, "q"),
])
def test_invalid_browser_filters_are_refused_naming_the_field(params, field):
    with pytest.raises(CardQueryError) as e:
        parse_query(params)
    assert e.value.field == field


def test_a_page_past_the_last_is_refused(dojo):
    assert dojo.cards(parse_query({"own": "1"})).pages == 1
    with pytest.raises(CardQueryError) as e:
        dojo.cards(parse_query({"own": "1", "page": "2"}))
    assert e.value.field == "page"


# -- CLI ----------------------------------------------------------------------------------------
def test_cli_add_list_note_bookmark_edit_rm(db_url):
    from torchdojo.cli.main import app

    runner = CliRunner(env={"TORCHDOJO_DATABASE_URL": db_url, "TORCHDOJO_BANK_DIR": str(BANK), "COLUMNS": "200"})
    r = runner.invoke(app, ["cards", "add", "--front", "Why zero_grad()?", "--back", "Gradients accumulate.",
                            "--key-point", "grads accumulate across backward calls", "--topic", "training-loop"])
    assert r.exit_code == 0, r.output
    assert "own:1" in r.output
    r = runner.invoke(app, ["cards", "add", "--front", "q", "--level", "staff"])
    assert r.exit_code == 2 and "--level" in r.output and "staff" in r.output
    r = runner.invoke(app, ["cards", "add", "--front", " "])
    assert r.exit_code == 2 and "--front" in r.output
    r = runner.invoke(app, ["cards", "list", "--own"])
    assert r.exit_code == 0 and "own:1" in r.output and "Why zero_grad()?" in r.output and "1 card(s)" in r.output
    r = runner.invoke(app, ["cards", "list", "--state", "lapsed"])
    assert r.exit_code == 2 and "--state" in r.output

    r = runner.invoke(app, ["note", "own:1", "see the optimizer docs"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["note", "own:1"])
    assert "see the optimizer docs" in r.output
    r = runner.invoke(app, ["bookmark", "view-reshape-contiguous"])
    assert r.exit_code == 0 and "Bookmarked" in r.output
    r = runner.invoke(app, ["cards", "list", "--bookmarked"])
    assert "view-reshape-contiguous" in r.output and "own:1" not in r.output
    r = runner.invoke(app, ["note", "no-such-card", "x"])
    assert r.exit_code == 2 and "no-such-card" in r.output
    r = runner.invoke(app, ["note", "own:1", "--clear"])
    assert r.exit_code == 0
    assert "No note" in runner.invoke(app, ["note", "own:1"]).output

    r = runner.invoke(app, ["cards", "edit", "own:1", "--level", "mid"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["cards", "list", "--own", "--q", "zero_grad"])
    assert "own:1" in r.output
    r = runner.invoke(app, ["cards", "rm", "own:1"], input="n\n")
    assert r.exit_code == 1 and "Kept" in r.output
    r = runner.invoke(app, ["cards", "rm", "own:1"], input="y\n")
    assert r.exit_code == 0 and "Deleted own:1" in r.output
    assert "0 card(s)" in runner.invoke(app, ["cards", "list", "--own"]).output


def test_an_answer_to_an_own_card_is_graded_on_its_key_points_in_the_web_app(db_url, server):
    """The grader's worker has no database: the own card travels with the request, and an edit
    to its key points is graded on the new ones (no stale rubric)."""
    import re

    import httpx

    from torchdojo.core import Dojo
    from torchdojo.settings import Settings

    d = Dojo(Settings(bank_dir=BANK, database_url=db_url))
    card = d.own_cards.create(
        "Why call zero_grad() every step?", "Gradients accumulate into .grad across backward calls.",
        ["backward adds gradients into .grad instead of overwriting them",
         "without clearing, each step uses the sum of all earlier gradients"])
    c = httpx.Client(base_url=server.url, timeout=300)
    hx = {"HX-Request": "true"}
    answer = ("Because backward accumulates: it adds the new gradient into .grad rather than replacing it, "
              "so if you never clear it every step would use the sum of all the earlier gradients.")
    r = c.post(f"/cards/own/{card.id}/answer", data={"answer": answer}, headers=hx)
    assert r.status_code == 200, r.text[:2000]
    assert "not graded" not in r.text, r.text[:2000]
    statuses = re.findall(r'<li class="kp (hit|missed|contradicted)">', r.text)
    assert statuses.count("hit") == 2, statuses
    assert [sc.entry_id for sc in d.scorecards.list()] == [card.card_id]  # kept, for self-review
    # edit: a third key point the answer does not make → now missed, not a cached 2/2
    d.own_cards.update(card.id, card.front, card.back,
                       [*card.key_points, "a DataLoader with num_workers above zero loads batches in parallel processes"], None, None)
    r = c.post(f"/cards/own/{card.id}/answer", data={"answer": answer}, headers=hx)
    statuses = re.findall(r'<li class="kp (hit|missed|contradicted)">', r.text)
    assert len(statuses) == 3 and statuses.count("missed") >= 1, statuses
    # without JavaScript: the card's page with the feedback in it
    page = c.post(f"/cards/own/{card.id}/answer", data={"answer": answer})
    assert page.status_code == 200 and 'id="own-card"' in page.text and 'id="practice-score"' in page.text
    # a card without key points cannot be graded: 422 with a message
    bare = d.own_cards.create("A card with no key points", "back")
    r = c.post(f"/cards/own/{bare.id}/answer", data={"answer": answer}, headers=hx)
    assert r.status_code == 422 and "no key points" in r.text
    assert c.post("/cards/own/999999/answer", data={"answer": "x"}, headers=hx).status_code == 404
