import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], "targets": [[0, -100]], "eps": 0.3},
             public=True, what="the worked example: one real token, one padding"),
        Case("padded-batch", {"b": 2, "l": 4, "c": 5, "eps": 0.1, "lengths": [4, 2]}, public=True, seed=2,
             what="two sequences of lengths 4 and 2"),
        Case("no-padding", {"b": 3, "l": 3, "c": 4, "eps": 0.2, "lengths": [3, 3, 3]}, seed=3, shrink=("c",),
             what="no padding: every position counts"),
        Case("uneven-lengths", {"b": 3, "l": 6, "c": 7, "eps": 0.1, "lengths": [6, 1, 3]}, seed=4, shrink=("c",),
             what="lengths 6, 1 and 3: each kept token weighs the same"),
        Case("pad-id-zero", {"b": 2, "l": 5, "c": 4, "eps": 0.2, "lengths": [5, 2], "ignore_index": 0}, seed=5,
             what="ignore_index = 0, a valid class id"),
        Case("pad-id-beyond-vocab", {"b": 2, "l": 4, "c": 3, "eps": 0.1, "lengths": [1, 3], "ignore_index": 3},
             seed=6, what="ignore_index = C, outside the class range"),
        Case("no-smoothing", {"b": 2, "l": 3, "c": 5, "eps": 0.0, "lengths": [3, 1]}, seed=7,
             what="label_smoothing = 0: plain masked cross-entropy"),
        Case("large-logits", {"b": 2, "l": 4, "c": 6, "eps": 0.1, "lengths": [4, 3], "scale": 1000.0}, seed=8,
             what="logits around ±1000 give a finite loss"),
        Case("float32-mostly-padding", {"b": 4, "l": 8, "c": 10, "eps": 0.15, "lengths": [1, 2, 1, 8],
                                        "dtype": "float32"}, seed=9, what="float32, mostly padding"),
    ]


def make_inputs(seed, eps, values=None, targets=None, b=1, l=1, c=1, lengths=None, scale=3.0,  # noqa: E741
                ignore_index=-100, dtype="float64"):
    dt = getattr(torch, dtype)
    if values is not None:
        return {"logits": torch.tensor(values, dtype=dt), "target": torch.tensor(targets),
                "label_smoothing": eps, "ignore_index": ignore_index}
    g = torch.Generator().manual_seed(seed)
    logits = (torch.randn(b, l, c, generator=g, dtype=torch.float64) * scale).to(dt)
    low = 1 if ignore_index == 0 else 0  # real tokens never use the padding id
    target = torch.randint(low, c, (b, l), generator=g)
    pad = torch.arange(l)[None, :] >= torch.tensor(lengths)[:, None]
    target[pad] = ignore_index
    return {"logits": logits, "target": target, "label_smoothing": eps, "ignore_index": ignore_index}


def oracle(inputs):
    """The built-in the candidate may not use."""
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    x = inputs["logits"].clone().requires_grad_(True)
    C = x.shape[-1]
    loss = F.cross_entropy(x.reshape(-1, C), inputs["target"].reshape(-1), ignore_index=inputs["ignore_index"],
                           label_smoothing=inputs["label_smoothing"])
    (grad,) = vjp(loss, x, seed=1)
    return {"loss": loss, "logits_grad": grad}
