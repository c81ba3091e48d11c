import torch

from torchdojo.judge.testing import Case

D, H, C = 3, 16, 3


def cases():
    return [
        Case("even", {"steps": 2, "n": 8, "micro": 4}, public=True, seed=1,
             what="two micro-batches of 4 make one batch of 8"),
        Case("uneven", {"steps": 2, "n": 10, "micro": 4}, public=True, seed=2,
             what="micro-batches of 4, 4 and 2: the last one weighs less"),
        Case("per-sample", {"steps": 3, "n": 6, "micro": 1}, seed=3, shrink=("steps",),
             what="micro-batch size 1"),
        Case("one-micro-batch", {"steps": 2, "n": 5, "micro": 8}, seed=4, shrink=("steps",),
             what="micro_batch_size larger than the batch: a plain step"),
        Case("tiny-remainder", {"steps": 3, "n": 7, "micro": 3}, seed=5, shrink=("steps",),
             what="3, 3 and 1 rows"),
        Case("big-then-one", {"steps": 2, "n": 9, "micro": 8}, seed=6, shrink=("steps",),
             what="8 rows then 1 row"),
        Case("many-steps", {"steps": 5, "n": 12, "micro": 5}, seed=7, shrink=("steps",),
             what="five optimizer steps with momentum: gradients must not leak between steps"),
    ]


def make_inputs(seed, steps, n, micro):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)  # noqa: E731
    inputs = {"w1": r(H, D) / D**0.5, "b1": 0.1 * r(H), "w2": r(C, H) / H**0.5, "b2": 0.1 * r(C),
              "lr": 0.5, "steps": steps, "micro": micro}
    for k in range(steps):
        inputs[f"x{k}"] = r(n, D)
        inputs[f"y{k}"] = torch.randint(0, C, (n,), generator=g)
    return inputs


def max_numel(inputs):
    # the batch itself and the parameters, but no hidden activation of the whole batch at once
    n, micro = inputs["x0"].shape[0], inputs["micro"]
    return max(n * D, min(n, micro) * H, H * D, C * H)


def oracle(inputs):
    """One ordinary large-batch step per batch: what accumulation must reproduce."""
    import types
    from pathlib import Path

    def full_batch_step(model, optimizer, loss_fn, x, y, micro_batch_size):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()

    mod = types.ModuleType("accum_harness")
    path = Path(__file__).with_name("harness.py")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), mod.__dict__)
    return mod.run(types.SimpleNamespace(train_step=full_batch_step), inputs)
