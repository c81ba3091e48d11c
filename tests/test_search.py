"""Search: BM25 with OR semantics, noise and stop words removed, typo correction and
did-you-mean, fused with dense retrieval (MiniLM, in the grader's worker process in the web app)."""

from __future__ import annotations

import hashlib
import shutil
import sys
import time
from pathlib import Path

import httpx
import numpy as np
import pytest
import yaml
from conftest import BANK, ROOT, Server

from torchdojo.bank.loader import load_bank
from torchdojo.practice.flashcards import Filters
from torchdojo.store.dense import DenseIndex, entry_texts
from torchdojo.store.search import HL_START, SearchIndex, analyse, rrf, to_fts_query

SMALL = {"nan-loss-debugging", "dataloader-worker-errors", "weight-tying", "zero-grad-why", "layer-shape-dtype-errors",
         "view-reshape-contiguous", "gradient-checkpointing-concept", "detach-stop-gradient", "broadcasting-semantics"}


def small_bank(tmp_path: Path) -> Path:
    """A copy of the real bank with only the :data:`SMALL` entries (the dense index of the whole
    bank takes minutes of CPU to build: the tests that need the model use this one)."""
    dst = tmp_path / "bank"
    shutil.copytree(BANK, dst)
    for f in (dst / "questions").rglob("*.md"):
        ids = [line[4:].strip() for line in f.read_text().splitlines() if line.startswith("id: ")]
        if ids[0] not in SMALL:
            f.unlink()
    return dst


def test_query_analysis_drops_noise_and_stop_words():
    assert analyse("RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x7200 and 512x10)") == [
        "runtimeerror", "mat1", "mat2", "shapes", "multiplied"]
    assert analyse("Expected all tensors to be on the same device, cuda:0 and cpu!") == [
        "expected", "tensors", "device", "cuda", "cpu"]
    assert analyse("why does my loss become nan") == ["loss", "become", "nan"]
    assert to_fts_query(["view", "reshape", "nn"]) == '"view"* OR "reshape"* OR "nn"'
    assert to_fts_query(['a"b']) == '"a""b"*'
    assert to_fts_query([]) is None


def test_rrf_fuses_by_rank():
    fused = rrf([(["a", "b", "c"], 1.0), (["c", "a"], 1.0)], k=60)
    assert [i for i, _ in fused] == ["a", "c", "b"]
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)


def test_title_match_ranks_first_and_snippet_highlights(dojo):
    hits = dojo.index.search("contiguous reshape")
    assert hits and hits[0].entry_id == "view-reshape-contiguous"
    assert HL_START in hits[0].snippet


def test_natural_question_finds_an_answer_without_every_word_matching(dojo):
    # The former all-words search returned nothing for this (every word required).
    ids = [h.entry_id for h in dojo.index.search("why does my loss become nan after a few hundred steps")]
    assert "nan-loss-debugging" in ids[:5]


def test_pasted_error_matches_by_its_stable_part(dojo):
    ids = [h.entry_id for h in dojo.index.search(
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x7200 and 512x10)")]
    assert ids[0] == "layer-shape-dtype-errors"


def test_typos_are_corrected_from_the_bank_vocabulary(dojo):
    res = dojo.index.query("dataloder workers")
    assert res.did_you_mean == "dataloader workers"
    assert res.corrections == {"dataloder": "dataloader"}
    assert res.hits[0].entry_id == "dataloader-worker-errors"
    res = dojo.index.query("zero grda")  # a swap of two letters is one edit (optimal string alignment)
    assert res.did_you_mean == "zero grad" and res.hits[0].entry_id == "zero-grad-why"
    # known words are never "corrected"; short words are not guessed at
    assert dojo.index.query("gradient clipping").did_you_mean is None
    assert dojo.index.correct("nan") is None


def test_gibberish_and_hostile_queries_find_nothing_and_do_not_raise(dojo):
    assert dojo.index.search("qzxv wplkjh") == []
    for q in ['"', "NEAR(", "a OR", "*", "title:x", "')--", "\x00", "ü" * 500, "the of and", "x" * 5000]:
        assert isinstance(dojo.index.search(q), list)
    assert dojo.browse("", Filters()) and len(dojo.browse("", Filters())) == len(dojo.bank)


def test_filters_combine_with_search(dojo):
    all_hits = dojo.browse("gradient")
    juniors = dojo.browse("gradient", Filters(level="junior"))
    assert juniors and len(juniors) < len(all_hits)
    assert all(e.meta.level == "junior" for e, _ in juniors)
    assert all(e.meta.type == "coding" for e, _ in dojo.browse("", Filters(type="coding")))


def test_dense_ranking_blends_into_the_lexical_one(dojo):
    def dense(_text):  # a ranker that knows better than BM25
        return [("weight-tying", 0.9), ("view-reshape-contiguous", 0.5), ("nonexistent-entry", 0.8)]

    res = dojo.index.query("contiguous reshape", dense=dense)
    assert res.mode == "hybrid"
    ids = [h.entry_id for h in res.hits]
    assert ids[0] == "view-reshape-contiguous" and "weight-tying" in ids and "nonexistent-entry" not in ids
    assert dojo.index.query("contiguous reshape", dense=lambda _t: None).mode == "lexical"
    # below the floor, a dense-only result is dropped: gibberish stays empty
    assert dojo.index.search("qzxv wplkjh", dense=lambda _t: [("weight-tying", 0.1)]) == []


def test_dense_index_is_cached_by_digest_and_ranks_by_meaning(tmp_path):
    from torchdojo.grading.model import Encoder

    bank = load_bank(small_bank(tmp_path))
    enc = Encoder()
    calls = []

    def encode(texts):
        calls.append(len(texts))
        return enc.encode(texts)

    index = DenseIndex.build(bank, encode, tmp_path / "cache")
    assert calls == [len(entry_texts(bank)[1])]
    cached = list((tmp_path / "cache" / "search").glob("*.npz"))
    assert len(cached) == 1

    def refuse(_texts):
        raise AssertionError("the cache was not used")

    again = DenseIndex.build(bank, refuse, tmp_path / "cache")
    assert np.allclose(again.matrix, index.matrix, atol=1e-3)
    cached[0].write_bytes(b"damaged")  # a damaged cache is recomputed, not trusted
    DenseIndex.build(bank, encode, tmp_path / "cache")
    assert len(calls) == 2

    top = index.rank(enc.encode(["share the embedding matrix with the output layer"])[0])
    assert top[0][0] == "weight-tying"
    top = index.rank(enc.encode(["throw away activations in the forward pass and recompute them in backward"])[0])
    assert top[0][0] == "gradient-checkpointing-concept"


def test_the_grader_worker_answers_searches_and_says_when_it_cannot(tmp_path):
    from torchdojo.grading.worker import GraderProcess
    from torchdojo.settings import Settings

    bank_dir = small_bank(tmp_path)
    settings = Settings(bank_dir=bank_dir, cache_dir=tmp_path / "cache", search_dense=True,
                        database_url=f"sqlite:///{tmp_path / 'db.sqlite'}")
    bank = load_bank(bank_dir)
    proc = GraderProcess(settings, bank)
    assert proc.dense_search("anything") is None  # not started: at once, no worker spawned
    assert proc.pid is None
    with proc:
        assert proc.dense_ready(300), proc.status
        ranked = proc.dense_search("my loss turns into nan after some steps")
        assert ranked and ranked[0][0] == "nan-loss-debugging"
        index = SearchIndex(bank)
        res = index.query("my loss turns into nan after some steps", dense=proc.dense_search)
        assert res.mode == "hybrid" and res.hits[0].entry_id == "nan-loss-debugging"
    assert proc.dense_search("anything") is None  # closed


@pytest.mark.parametrize("name", ["search_queries/dev.yaml", "search_frozen/queries.yaml"])
def test_query_sets_are_well_formed_and_name_bank_entries(name):
    sys.path.insert(0, str(ROOT / "bench"))
    import search as bench

    queries = bench.load_queries(ROOT / "bench" / name, {e.id for e in load_bank(BANK)})
    kinds = {q["kind"] for q in queries}
    assert kinds == set(bench.KINDS) and len(queries) >= 120
    assert all(sum(q["kind"] == k for q in queries) >= 20 for k in bench.KINDS)


def test_frozen_search_set_is_unchanged():
    folder = ROOT / "bench" / "search_frozen"
    want = (folder / "queries.sha256").read_text().split()[0]
    data = (folder / "queries.yaml").read_bytes()
    assert hashlib.sha256(data).hexdigest() == want, "bench/search_frozen/queries.yaml changed: see its README"
    assert isinstance(yaml.safe_load(data), list)


def test_browser_search_by_a_natural_question_and_by_a_typo(tmp_path, browser):
    """The web app's search, ranked by meaning in the grader worker once it is ready."""
    srv = Server(f"sqlite:///{tmp_path / 'db.sqlite'}", bank_dir=small_bank(tmp_path),
                 env={"TORCHDOJO_SEARCH_DENSE": "1", "TORCHDOJO_CACHE_DIR": str(tmp_path / "cache")})
    srv.start()
    try:
        deadline = time.monotonic() + 300
        while "still loading" in (page := httpx.get(srv.url + "/questions", params={"q": "nan"}, timeout=30).text):
            assert time.monotonic() < deadline, "the dense search never became ready"
            time.sleep(1)
        assert "result-count" in page
        from playwright.sync_api import expect

        p = browser.new_page()
        p.goto(srv.url + "/questions")
        p.locator("#q").fill("my training loss turns into nan after a while, why")
        p.locator("#q").press("Enter")
        expect(p.locator(".result-title").first).to_have_attribute("href", "/questions/nan-loss-debugging",
                                                                     timeout=30_000)
        expect(p.locator("#result-count")).not_to_contain_text("still loading")
        p.locator("#q").fill("dataloder wrokers")
        p.locator("#q").press("Enter")
        expect(p.locator(".did-you-mean")).to_contain_text("Did you mean dataloader workers?", timeout=30_000)
        expect(p.locator(".result-title").first).to_have_attribute("href", "/questions/dataloader-worker-errors")
        p.locator(".did-you-mean a").click()
        p.wait_for_url("**q=dataloader*workers*")
        expect(p.locator(".result-title").first).to_have_attribute("href", "/questions/dataloader-worker-errors")
        assert p.locator(".did-you-mean").count() == 0
        p.close()
    finally:
        srv.stop()
