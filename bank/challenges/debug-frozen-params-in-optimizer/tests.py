import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("freeze-after-2", {"steps": 5, "freeze_after": 2, "n": 6, "d": 3, "h": 4, "c": 3, "weight_decay": 0.1},
             public=True, seed=1, what="two full steps, then three with the backbone frozen"),
        Case("freeze-after-1", {"steps": 4, "freeze_after": 1, "n": 4, "d": 2, "h": 3, "c": 2, "weight_decay": 0.0},
             public=True, seed=2, what="no weight decay: Adam's moments alone"),
        Case("frozen-from-start", {"steps": 4, "freeze_after": 0, "n": 5, "d": 3, "h": 4, "c": 3,
                                   "weight_decay": 0.1}, seed=3, what="frozen before the first step"),
        Case("never-frozen", {"steps": 3, "freeze_after": 5, "n": 5, "d": 3, "h": 4, "c": 3, "weight_decay": 0.05},
             seed=4, what="the freeze step is never reached"),
        Case("long-tail", {"steps": 12, "freeze_after": 3, "n": 6, "d": 4, "h": 6, "c": 4, "weight_decay": 0.2},
             seed=5, what="nine steps after freezing: the head's optimiser state carries on"),
        Case("strong-decay", {"steps": 6, "freeze_after": 2, "n": 4, "d": 3, "h": 5, "c": 2, "weight_decay": 1.0},
             seed=6, what="strong weight decay"),
    ]


def make_inputs(seed, steps, freeze_after, n, d, h, c, weight_decay):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, s=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * s

    return {"xs": rnd(steps, n, d), "ys": torch.randint(0, c, (steps, n), generator=g), "lr": 0.05,
            "weight_decay": weight_decay, "freeze_after": freeze_after,
            "0.weight": rnd(h, d, s=d ** -0.5), "0.bias": rnd(h, s=0.1), "2.weight": rnd(c, h, s=h ** -0.5),
            "2.bias": rnd(c, s=0.1)}


def check(inputs, got):
    if got["backbone_change_after_freeze"] > 0:
        return (f"the backbone changed by up to {got['backbone_change_after_freeze']:.3g} after it was frozen at "
                f"step {inputs['freeze_after']}")
    return None
