import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("two-batches", {"batches": 2, "n": 4, "d": 3, "h": 5, "c": 3}, public=True, seed=1,
             what="two validation batches"),
        Case("one-batch", {"batches": 1, "n": 6, "d": 2, "h": 4, "c": 2}, public=True, seed=2,
             what="a single validation batch"),
        Case("many-batches", {"batches": 12, "n": 5, "d": 4, "h": 6, "c": 4}, seed=3, shrink=("batches",),
             what="twelve batches: nothing may be kept for backward"),
        Case("single-samples", {"batches": 6, "n": 1, "d": 3, "h": 3, "c": 3}, seed=4, shrink=("batches",),
             what="batches of one sample"),
        Case("wide", {"batches": 3, "n": 8, "d": 6, "h": 16, "c": 5}, seed=5, shrink=("batches",),
             what="a wider model"),
        Case("binary", {"batches": 4, "n": 3, "d": 2, "h": 4, "c": 2}, seed=6, shrink=("batches",),
             what="two classes"),
    ]


def make_inputs(seed, batches, n, d, h, c):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    return {"xs": rnd(batches, n, d), "ys": torch.randint(0, c, (batches, n), generator=g),
            "w1": rnd(h, d, scale=d ** -0.5), "b1": rnd(h, scale=0.1), "w2": rnd(c, h, scale=h ** -0.5),
            "b2": rnd(c, scale=0.1)}


def check(inputs, got):
    if got["probs_requires_grad"]:
        return (f"the returned probabilities require grad and keep {got['graph_nodes_kept_by_probs']} autograd "
                "nodes (and the activations they saved) alive")
    saved = got["tensors_saved_for_backward_during_evaluate"]
    if saved:
        return (f"evaluate() made autograd save {saved} tensors for a backward pass that never happens: "
                "the graphs (and their memory) are still built during validation")
    return None


def oracle(inputs):
    """The same numbers computed directly with tensor formulas."""
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    xs, ys = inputs["xs"], inputs["ys"]
    x, y = xs.reshape(-1, xs.shape[-1]), ys.reshape(-1)
    logits = torch.tanh(x @ inputs["w1"].T + inputs["b1"]) @ inputs["w2"].T + inputs["b2"]
    probs = torch.softmax(logits, dim=1)
    params = [inputs[k].clone().requires_grad_(True) for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params
    loss0 = F.cross_entropy(torch.tanh(xs[0] @ w1.T + b1) @ w2.T + b2, ys[0])
    return {"loss": F.cross_entropy(logits, y).item(), "accuracy": (probs.argmax(1) == y).double().mean().item(),
            "probs": probs, "probs_requires_grad": False, "graph_nodes_kept_by_probs": 0,
            "tensors_saved_for_backward_during_evaluate": 0,
            "train_step_grads": torch.cat([g.flatten() for g in vjp(loss0, tuple(params), seed=1)])}
