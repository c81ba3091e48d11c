import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"n": 1, "c": 2, "t": 2, "s": 2, "d": 2, "values": [[2.0, 0.0]]}, public=True, seed=1,
             what="one example, two classes"),
        Case("small-batch", {"n": 3, "c": 4, "t": 3, "s": 3, "d": 4}, public=True, seed=2,
             what="three examples, square attention"),
        Case("batch-of-one", {"n": 1, "c": 5, "t": 4, "s": 4, "d": 3}, seed=3, shrink=("c",),
             what="a batch of one: probabilities must not all be 1"),
        Case("t-ne-s", {"n": 4, "c": 3, "t": 2, "s": 5, "d": 4}, seed=4, shrink=("n",),
             what="fewer queries than keys: weights sum to 1 over the keys"),
        Case("per-token-logits", {"n": 3, "l": 5, "c": 4, "t": 3, "s": 6, "d": 2}, seed=5, shrink=("n",),
             what="logits of shape (N, L, C): classes are the last dim"),
        Case("heads", {"n": 2, "h": 3, "c": 6, "t": 4, "s": 7, "d": 4}, seed=6, shrink=("n",),
             what="4-D attention (batch, heads, T, d)"),
        Case("large-logits", {"n": 5, "c": 4, "t": 3, "s": 3, "d": 2, "scale": 800.0}, seed=7, shrink=("n",),
             what="logits near ±1000 stay finite"),
        Case("float32", {"n": 6, "c": 7, "t": 5, "s": 3, "d": 8, "dtype": "float32"}, seed=8, shrink=("n",),
             what="float32 inputs keep float32"),
    ]


def make_inputs(seed, n, c, t, s, d, values=None, l=None, h=None, scale=1.0, dtype="float64"):  # noqa: E741
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)

    def rnd(*shape, sc=1.0):
        return (torch.randn(*shape, generator=g, dtype=torch.float64) * sc).to(dt)

    if values is not None:
        logits = torch.tensor(values, dtype=dt)
    else:
        logits = rnd(*((n, l, c) if l else (n, c)), sc=scale)
    lead = (n, h) if h else (n,)
    return {"logits": logits, "q": rnd(*lead, t, d, sc=scale ** 0.5), "k": rnd(*lead, s, d, sc=scale ** 0.5),
            "v": rnd(*lead, s, 3)}


def check(inputs, got):
    p, w = got["probs"], got["attn_weights"]
    for name, t, msg in (("probs", p, "class probabilities of one example do not sum to 1 over the classes"),
                         ("attn_weights", w, "one query's attention weights do not sum to 1 over the keys")):
        if tuple(t.shape) != tuple(inputs["logits" if name == "probs" else "q"].shape[:-1]) + (
                (inputs["logits"].shape[-1],) if name == "probs" else (inputs["k"].shape[-2],)):
            return None  # the shape comparison reports it
        s = t.sum(dim=-1)
        if not torch.isfinite(s).all():
            return None
        if not torch.allclose(s, torch.ones_like(s), atol=1e-4):
            return msg + " (softmax over the wrong dimension?)"
    if got["first_alone"].shape == p[:1].shape and not torch.allclose(got["first_alone"], p[:1].detach(), atol=1e-5):
        return "the probabilities of example 0 change when other examples are in the batch"
    return None


def oracle(inputs):
    """Softmax written as exp(x - logsumexp(x)) along the last dim; attention with einsum."""
    from torchdojo.judge.testing import vjp

    def sm(x):
        return (x - torch.logsumexp(x, dim=-1, keepdim=True)).exp()

    def attn(q, k, v):
        w = sm(torch.einsum("...td,...sd->...ts", q, k) / q.shape[-1] ** 0.5)
        return torch.einsum("...ts,...se->...te", w, v), w

    logits = inputs["logits"].clone().requires_grad_(True)
    probs = sm(logits)
    out = {"probs": probs, "first_alone": sm(inputs["logits"][:1]).detach()}
    (out["probs_vjp"],) = vjp(probs, logits, seed=1)
    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    o, w = attn(q, k, v)
    out["attn_out"], out["attn_weights"] = o, w
    out["q_vjp"], out["k_vjp"], out["v_vjp"] = vjp(o, (q, k, v), seed=2)
    out["first_attn_alone"] = attn(*(inputs[n][:1] for n in ("q", "k", "v")))[0].detach()
    return out
