import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("one-step", {"steps": 1, "n": 4, "c": 3}, public=True, seed=1,
             what="one training step, then eval"),
        Case("three-steps", {"steps": 3, "n": 6, "c": 2, "mean": 2.0, "std": 3.0}, public=True, seed=2,
             what="three training steps move the running stats, then eval"),
        Case("many-steps", {"steps": 6, "n": 8, "c": 5, "mean": -1.0, "std": 2.0}, seed=3, shrink=("c", "steps"),
             what="several steps with momentum 0.1"),
        Case("small-batch", {"steps": 3, "n": 2, "c": 4, "mean": 1.0, "std": 1.5}, seed=4, shrink=("c", "steps"),
             what="batch of 2: unbiased vs biased variance differ by 2x"),
        Case("3d-input", {"steps": 3, "n": 3, "c": 4, "length": 5, "mean": 0.5, "std": 2.0}, seed=5,
             shrink=("c", "length"), what="(N, C, L) input: statistics over N and L"),
        Case("momentum-one", {"steps": 2, "n": 5, "c": 3, "momentum": 1.0, "mean": 3.0, "std": 0.5}, seed=6,
             shrink=("c",), what="momentum 1: running stats equal the last batch's"),
        Case("large-eps", {"steps": 2, "n": 5, "c": 3, "eps": 0.5, "std": 0.4}, seed=7, shrink=("c",),
             what="eps = 0.5 with low-variance features"),
        Case("eval-only", {"steps": 0, "n": 4, "c": 3, "mean": 5.0, "std": 2.0}, seed=8, shrink=("n", "c"),
             what="a fresh module in eval mode uses the initial running stats"),
    ]


def make_inputs(seed, steps, n, c, length=None, mean=0.0, std=1.0, momentum=0.1, eps=1e-5):
    g = torch.Generator().manual_seed(seed)
    shape = (n, c) if length is None else (n, c, length)
    per_channel = torch.randn(c, generator=g, dtype=torch.float64).view(1, -1, *([1] * (len(shape) - 2)))
    center = mean + per_channel

    def batch(k):
        return torch.randn(k, *shape, generator=g, dtype=torch.float64) * std + center

    return {"train_x": batch(steps), "eval_x": batch(1)[0], "momentum": momentum, "eps": eps,
            "weight": 1.0 + 0.5 * torch.randn(c, generator=g, dtype=torch.float64),
            "bias": 0.5 * torch.randn(c, generator=g, dtype=torch.float64)}


def check(inputs, got):
    if any(got.get("train_buffers_build_graph", [])) or got.get("eval_buffers_build_graph"):
        return ("running_mean / running_var require grad (or carry a grad_fn) after a training step: "
                "update the buffers under torch.no_grad() (or from detached statistics)")
    return None
