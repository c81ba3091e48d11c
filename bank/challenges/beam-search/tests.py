import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"start": [0.1, 0.6, 0.3], "trans": [[0.2, 0.4, 0.4], [0.5, 0.1, 0.4], [0.3, 0.6, 0.1]],
                         "beam": 2, "max_len": 3}, public=True, what="the worked example"),
        Case("random", {"V": 5, "beam": 3, "max_len": 5, "alpha": 0.7}, public=True, seed=1,
             what="random tables, alpha 0.7"),
        Case("exhaustive", {"V": 4, "beam": 128, "max_len": 4, "alpha": 1.0, "n_best": 6}, seed=2,
             what="a beam wide enough to keep every hypothesis: the true best sequences"),
        Case("greedy", {"V": 6, "beam": 1, "max_len": 7, "alpha": 0.0}, seed=7, what="beam_size 1 is greedy decoding"),
        Case("eos-likely", {"V": 5, "beam": 4, "max_len": 8, "alpha": 0.5, "eos_boost": 2.5}, seed=4,
             what="EOS is likely: finished hypotheses must stay frozen (and the search may stop early)"),
        Case("long-favoured", {"V": 4, "beam": 5, "max_len": 6, "alpha": 2.0, "eos_boost": 1.0}, seed=5,
             what="alpha 2 favours longer sequences in the final ranking"),
        Case("max-len-one", {"V": 7, "beam": 3, "max_len": 1, "alpha": 1.0}, seed=6, what="max_len 1"),
        Case("wide-vocab", {"V": 40, "beam": 6, "max_len": 12, "alpha": 0.6, "eos_boost": 1.5, "n_best": 4,
                            "scale": 3.0}, seed=7, what="a larger vocabulary, n_best < beam_size"),
        Case("beam-above-vocab", {"V": 3, "beam": 5, "max_len": 3, "alpha": 0.3}, seed=8,
             what="beam_size larger than the vocabulary"),
    ]


def make_inputs(seed, beam, max_len, start=None, trans=None, V=0, alpha=0.0, n_best=None, eos_boost=0.0, scale=1.5,
                eos=0):
    g = torch.Generator().manual_seed(seed)
    if start is not None:
        ls = torch.tensor(start, dtype=torch.float64).log()
        lt = torch.tensor(trans, dtype=torch.float64).log()
    else:
        ls = torch.log_softmax(torch.randn(V, generator=g, dtype=torch.float64) * scale, dim=0)
        logits = torch.randn(V, V, generator=g, dtype=torch.float64) * scale
        logits[:, eos] += eos_boost
        lt = torch.log_softmax(logits, dim=1)
    return {"log_start": ls, "log_trans": lt, "eos": eos, "beam_size": beam, "max_len": max_len, "alpha": alpha,
            "n_best": n_best}


def _rank(hyps, alpha, n_best):
    """hyps: (logprob, tokens); best normalised score first."""
    ranked = sorted(hyps, key=lambda h: (-(h[0] / len(h[1]) ** alpha), h[1]))[:n_best]
    return {"sequences": [list(t) for _, t in ranked],
            "scores": torch.tensor([lp / len(t) ** alpha for lp, t in ranked], dtype=torch.float64),
            "logprobs": torch.tensor([lp for lp, _ in ranked], dtype=torch.float64)}


def oracle(inputs):
    """Brute force (every sequence) when the beam can hold every hypothesis; otherwise a plain-Python
    beam search over lists of (logprob, tokens, finished)."""
    ls, lt = inputs["log_start"].tolist(), inputs["log_trans"].tolist()
    eos, B, L, alpha = inputs["eos"], inputs["beam_size"], inputs["max_len"], inputs["alpha"]
    V = len(ls)
    n_best = B if inputs["n_best"] is None else inputs["n_best"]
    total = sum((V - 1) ** (n - 1) for n in range(1, L + 1)) + (V - 1) ** L
    if B >= total:
        every = []
        frontier = [(ls[v], (v,)) for v in range(V)]
        for n in range(1, L + 1):
            nxt = []
            for lp, toks in frontier:
                if toks[-1] == eos or n == L:
                    every.append((lp, toks))
                else:
                    nxt.extend((lp + lt[toks[-1]][v], toks + (v,)) for v in range(V))
            frontier = nxt
        return _rank(every, alpha, n_best)
    beam = sorted(((ls[v], (v,), v == eos) for v in range(V)), key=lambda h: (-h[0], h[1]))[:B]
    for _ in range(L - 1):
        if all(f for _, _, f in beam):
            break
        cands = []
        for lp, toks, fin in beam:
            if fin:
                cands.append((lp, toks, True))
            else:
                cands.extend((lp + lt[toks[-1]][v], toks + (v,), v == eos) for v in range(V))
        beam = sorted(cands, key=lambda h: (-h[0], h[1]))[:B]
    return _rank([(lp, toks) for lp, toks, _ in beam], alpha, n_best)
