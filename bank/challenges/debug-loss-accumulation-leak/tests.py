import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("one-epoch", {"epochs": 1, "batches": 3, "n": 4, "d": 2, "h": 3, "o": 1, "lr": 0.1}, public=True,
             seed=1, what="one epoch of three steps"),
        Case("two-epochs", {"epochs": 2, "batches": 4, "n": 4, "d": 3, "h": 4, "o": 2, "lr": 0.05}, public=True,
             seed=2, what="two epochs of four steps"),
        Case("long-epoch", {"epochs": 1, "batches": 12, "n": 3, "d": 2, "h": 4, "o": 1, "lr": 0.05}, seed=3,
             shrink=("batches",), what="a long epoch: no step's graph may outlive the next step"),
        Case("many-epochs", {"epochs": 5, "batches": 3, "n": 5, "d": 3, "h": 5, "o": 1, "lr": 0.1}, seed=4,
             shrink=("epochs",), what="five epochs: per-epoch means"),
        Case("single-batch", {"epochs": 3, "batches": 1, "n": 6, "d": 4, "h": 4, "o": 2, "lr": 0.1}, seed=5,
             shrink=("epochs",), what="one batch per epoch"),
        Case("single-step", {"epochs": 1, "batches": 1, "n": 4, "d": 2, "h": 3, "o": 1, "lr": 0.1}, seed=6,
             what="one step in total: even its graph must not be returned"),
    ]


def make_inputs(seed, epochs, batches, n, d, h, o, lr):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    xs = rnd(batches, n, d)
    ys = torch.cos(xs @ rnd(d, o)) + 0.1 * rnd(batches, n, o)
    return {"xs": xs, "ys": ys, "lr": lr, "epochs": epochs, "w1": rnd(h, d, scale=d ** -0.5),
            "b1": rnd(h, scale=0.1), "w2": rnd(o, h, scale=h ** -0.5), "b2": rnd(o, scale=0.1)}


def check(inputs, got):
    if got["step_graphs_kept_alive_by_result"]:
        return (f"the returned history keeps the autograd graphs of {got['step_graphs_kept_alive_by_result']} "
                "training steps alive (it holds tensors that still have a grad_fn)")
    if got["max_old_step_graphs_alive_during_training"]:
        return (f"during training, up to {got['max_old_step_graphs_alive_during_training']} graphs of earlier "
                "steps were still alive at a later step: something chains them together")
    if got["returned_values_not_python_floats"]:
        return (f"{got['returned_values_not_python_floats']} logged values are not plain Python floats (tensors, even "
                "detached ones, are not what the history should hold: use .item())")
    return None
