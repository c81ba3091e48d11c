import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("two-steps", {"steps": 2, "n": 8, "d": 3, "h": 5, "c": 3, "p": 0.5, "lr": 0.1}, public=True, seed=1,
             what="two training steps, validation after each"),
        Case("four-steps", {"steps": 4, "n": 6, "d": 4, "h": 6, "c": 2, "p": 0.3, "lr": 0.2}, public=True, seed=2,
             what="four steps with dropout 0.3"),
        Case("batchnorm-only", {"steps": 5, "n": 8, "d": 3, "h": 4, "c": 3, "p": 0.0, "lr": 0.1}, seed=3,
             shrink=("steps",), what="no dropout: validation must not change BatchNorm's running statistics"),
        Case("no-training", {"steps": 0, "n": 4, "d": 2, "h": 4, "c": 2, "p": 0.5, "lr": 0.1}, seed=4,
             what="validation of an untrained model is deterministic"),
        Case("many-steps", {"steps": 10, "n": 6, "d": 3, "h": 6, "c": 4, "p": 0.2, "lr": 0.05}, seed=5,
             shrink=("steps",), what="ten steps: training after validation still uses training mode"),
        Case("heavy-dropout", {"steps": 3, "n": 10, "d": 5, "h": 8, "c": 3, "p": 0.8, "lr": 0.1}, seed=6,
             shrink=("steps",), what="dropout 0.8"),
    ]


def make_inputs(seed, steps, n, d, h, c, p, lr):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    centers = rnd(c, d, scale=1.5)

    def data(*lead):
        y = torch.randint(0, c, lead, generator=g)
        return centers[y] + rnd(*lead, d), y

    xs, ys = data(steps, n)
    val_x, val_y = data(12)
    return {"xs": xs, "ys": ys, "val_x": val_x + 0.5, "val_y": val_y, "lr": lr, "p": p, "rng_seed": seed,
            "w1": rnd(h, d, scale=d ** -0.5), "b1": rnd(h, scale=0.1), "w2": rnd(c, h, scale=h ** -0.5),
            "b2": rnd(c, scale=0.1)}


def check(inputs, got):
    if got["final_eval_a"] != got["final_eval_b"]:
        return ("evaluate() returned different results for two identical calls on the same model "
                f"({got['final_eval_a']} vs {got['final_eval_b']}): validation must be deterministic")
    if got["model_changed_by_evaluate"]:
        return "evaluate() changed the model's state (parameters or BatchNorm buffers): validation must not"
    return None
