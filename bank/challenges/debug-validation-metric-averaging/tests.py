import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("uneven-last-batch", {"n": 10, "batch_size": 4, "d": 3, "h": 5, "c": 3}, public=True, seed=1,
             what="10 samples in batches of 4: the last batch has 2"),
        Case("one-leftover", {"n": 9, "batch_size": 4, "d": 2, "h": 4, "c": 2}, public=True, seed=2,
             what="the last batch holds a single sample"),
        Case("even-batches", {"n": 12, "batch_size": 4, "d": 3, "h": 4, "c": 3}, seed=3,
             what="batches that divide the dataset evenly"),
        Case("batch-larger-than-data", {"n": 7, "batch_size": 16, "d": 3, "h": 4, "c": 4}, seed=4,
             what="a single batch smaller than batch_size"),
        Case("many-batches", {"n": 37, "batch_size": 5, "d": 4, "h": 6, "c": 5}, seed=5, shrink=("n",),
             what="37 samples in batches of 5"),
        Case("batch-of-one", {"n": 6, "batch_size": 1, "d": 2, "h": 3, "c": 2}, seed=6, shrink=("n",),
             what="batch size 1"),
    ]


def make_inputs(seed, n, batch_size, d, h, c):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, s=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * s

    centers = rnd(c, d)
    y = torch.randint(0, c, (n,), generator=g)
    # sorted labels: a validation file grouped by class, so batches differ a lot from one another
    y = y.sort().values
    return {"x": centers[y] + rnd(n, d), "y": y, "batch_size": batch_size,
            "0.weight": rnd(h, d, s=d ** -0.5), "0.bias": rnd(h, s=0.1), "2.weight": rnd(c, h, s=h ** -0.5),
            "2.bias": rnd(c, s=0.1)}


def check(inputs, got):
    import math

    a, b = got["first_run"], got["second_run"]
    # exact up to the rounding of a different summation order
    if not all(math.isclose(a[k], b[k], rel_tol=1e-12, abs_tol=1e-15) for k in ("loss", "accuracy")):
        return (f"two evaluations of the same model on the same data disagree ({got['first_run']} vs "
                f"{got['second_run']})")
    return None


def oracle(inputs):
    """Every sample at once, no batching at all."""
    import torch.nn.functional as F

    x, y = inputs["x"], inputs["y"]
    logits = torch.relu(x @ inputs["0.weight"].T + inputs["0.bias"]) @ inputs["2.weight"].T + inputs["2.bias"]
    r = {"loss": F.cross_entropy(logits, y).item(), "accuracy": (logits.argmax(1) == y).double().mean().item()}
    return {"first_run": r, "second_run": dict(r)}
