import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("short", {"base_lr": 0.5, "min_lr": 0.05, "warmup": 3, "total": 10, "extra": 2}, public=True,
             what="3 warmup steps, cosine to step 10, then flat"),
        Case("zero-min", {"base_lr": 1.0, "min_lr": 0.0, "warmup": 2, "total": 6, "extra": 0}, public=True,
             what="decay to zero"),
        Case("no-warmup", {"base_lr": 0.3, "min_lr": 0.01, "warmup": 0, "total": 8, "extra": 2},
             what="warmup_steps = 0: pure cosine from step 0"),
        Case("one-warmup-step", {"base_lr": 0.2, "min_lr": 0.02, "warmup": 1, "total": 5, "extra": 1},
             what="warmup_steps = 1"),
        Case("long-warmup", {"base_lr": 3e-4, "min_lr": 3e-5, "warmup": 10, "total": 40, "extra": 5},
             what="typical LLM scale: 10 warmup steps, 30 cosine steps"),
        Case("one-cosine-step", {"base_lr": 1.0, "min_lr": 0.1, "warmup": 4, "total": 5, "extra": 3},
             what="total = warmup + 1: one cosine step then min_lr"),
        Case("min-equals-base", {"base_lr": 0.1, "min_lr": 0.1, "warmup": 3, "total": 9, "extra": 1},
             what="min_lr = base_lr: constant after warmup"),
        Case("long-tail", {"base_lr": 2.0, "min_lr": 0.5, "warmup": 5, "total": 12, "extra": 20}, shrink=("extra",),
             what="many steps past total_steps stay at min_lr (the cosine must not come back up)"),
    ]


def make_inputs(seed, base_lr, min_lr, warmup, total, extra):
    return {"base_lr": base_lr, "min_lr": min_lr, "warmup": warmup, "total": total, "n": total + 1 + extra}


def oracle(inputs):
    """The same schedule from PyTorch's own schedulers: SequentialLR(LinearLR, CosineAnnealingLR) up to
    total_steps; CosineAnnealingLR is periodic, so past total_steps the value is min_lr by definition."""
    from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR

    base, mn, w, t, n = inputs["base_lr"], inputs["min_lr"], inputs["warmup"], inputs["total"], inputs["n"]
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base)
    cosine = CosineAnnealingLR(opt, T_max=t - w, eta_min=mn)
    if w == 0:
        sched = cosine
    else:
        sched = SequentialLR(opt, [LinearLR(opt, 1.0 / w, 1.0, total_iters=max(w - 1, 1)), cosine], milestones=[w])
    lrs = []
    for s in range(n):
        lrs.append(sched.get_last_lr()[0] if s <= t else mn)
        opt.step()
        sched.step()
    lr = torch.tensor(lrs, dtype=torch.float64)
    return {"lr_at": lr, "lambda_lr": lr.clone()}
