import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("even", {"w": 4, "shape": [8]}, seed=1, public=True, what="W = 4, N = 8: four chunks of 2"),
        Case("uneven", {"w": 3, "shape": [10]}, seed=2, public=True,
             what="N % W != 0: chunks of 4, 3, 3"),
        Case("single-rank", {"w": 1, "shape": [5]}, seed=3, what="W = 1: nothing to send"),
        Case("two-ranks-odd", {"w": 2, "shape": [7]}, seed=4, shrink=("w",), what="W = 2, odd N"),
        Case("fewer-elements-than-ranks", {"w": 5, "shape": [3]}, seed=5,
             what="N < W: some chunks are empty (empty chunks are still sent)"),
        Case("matrix", {"w": 4, "shape": [3, 5]}, seed=6, shrink=("w",),
             what="2-D tensors (N = 15 over 4 ranks); results keep the input's shape"),
        Case("many-ranks-float32", {"w": 8, "shape": [6, 9], "dtype": "float32", "scale": 1e3}, seed=7,
             shrink=("w",), what="W = 8, float32, uneven chunks, large values: ranks agree bit for bit"),
        Case("integers", {"w": 6, "shape": [2, 11], "dtype": "int64"}, seed=8, shrink=("w",),
             what="int64 tensors: a sum, not a mean, in the input's dtype"),
        Case("one-element-chunks", {"w": 6, "shape": [6]}, seed=9, what="N = W: one element per chunk"),
    ]


def make_inputs(seed, w, shape, dtype="float64", scale=1.0):
    g = torch.Generator().manual_seed(seed)
    if dtype == "int64":
        x = torch.randint(-50, 50, (w, *shape), generator=g)
    else:
        x = (torch.randn((w, *shape), generator=g, dtype=torch.float64) * scale).to(getattr(torch, dtype))
    return {"x": x}


def check(inputs, got):
    if got.get("wrong_links"):
        return f"send() went from a rank to a rank that is not its right neighbour: {got['wrong_links'][:3]}"
    res = got["results"]
    if isinstance(res, torch.Tensor) and res.dim() >= 1 and res.shape[0] > 1:
        if not all(torch.equal(res[0], res[r]) for r in range(1, res.shape[0])):
            return "after the all-gather every rank must hold bit-identical results (it copies, it does not re-add)"
    return None


def oracle(inputs):
    x = inputs["x"]
    w = x.shape[0]
    n = x[0].numel()
    base, extra = divmod(n, w)
    size = [base + (1 if c < extra else 0) for c in range(w)]
    total = x.to(torch.float64).sum(0).to(x.dtype) if x.is_floating_point() else x.sum(0)
    messages = [[size[(r - s) % w] for s in range(w - 1)] + [size[(r + 1 - s) % w] for s in range(w - 1)]
                for r in range(w)]
    return {
        "results": total.expand(w, *x.shape[1:]).clone(),
        "sent": [sum(m) for m in messages],  # = 2N - size[r+1] - size[r+2]
        "messages": messages,
        "wrong_links": [],
        "inputs_unchanged": True,
    }
