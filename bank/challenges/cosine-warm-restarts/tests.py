from torchdojo.judge.testing import Case


def cases():
    return [
        Case("t-mult-1", {"base_lr": 0.1, "T_0": 4, "T_mult": 1, "eta_min": 0.0, "epochs": 10, "per_epoch": 1},
             public=True, what="integer epochs, cycles of 4 epochs"),
        Case("t-mult-2", {"base_lr": 0.1, "T_0": 2, "T_mult": 2, "eta_min": 0.001, "epochs": 15, "per_epoch": 1},
             public=True, what="cycles of 2, 4, 8 epochs; restarts at 2, 6, 14"),
        Case("fractional-t-mult-1", {"base_lr": 0.05, "T_0": 3, "T_mult": 1, "eta_min": 0.005, "epochs": 7,
                                     "per_epoch": 4},
             what="stepped every batch: epoch + i / iters (4 batches per epoch)"),
        Case("fractional-t-mult-2", {"base_lr": 1.0, "T_0": 1, "T_mult": 2, "eta_min": 0.0, "epochs": 16,
                                     "per_epoch": 5},
             what="T_0 = 1, T_mult = 2, 5 batches per epoch: restarts at 1, 3, 7, 15"),
        Case("t-mult-3", {"base_lr": 0.3, "T_0": 2, "T_mult": 3, "eta_min": 0.01, "epochs": 28, "per_epoch": 2,
                          "extra": [2.0, 7.999, 8.0, 26.0, 79.5, 80.0, 250.0]},
             what="T_mult = 3: cycles of 2, 6, 18, 54, 162 epochs; exactly at a restart the lr is back to base_lr"),
        Case("one-epoch-cycles", {"base_lr": 0.2, "T_0": 1, "T_mult": 1, "eta_min": 0.02, "epochs": 3,
                                  "per_epoch": 8},
             what="T_0 = 1, T_mult = 1: a restart every epoch"),
        Case("long-run", {"base_lr": 0.01, "T_0": 5, "T_mult": 2, "eta_min": 1e-4, "epochs": 0, "per_epoch": 1,
                          "extra": [0.0, 4.99, 5.0, 14.5, 15.0, 35.0, 74.9, 155.0, 315.0, 634.0, 635.0, 1000.25]},
             what="far epochs (many cycles) with T_mult = 2, including exact restart epochs"),
        Case("eta-min-equals-base", {"base_lr": 0.1, "T_0": 3, "T_mult": 2, "eta_min": 0.1, "epochs": 10,
                                     "per_epoch": 2},
             what="eta_min = base_lr: a constant learning rate"),
    ]


def make_inputs(seed, base_lr, T_0, T_mult, eta_min, epochs, per_epoch, extra=()):
    es = [e + i / per_epoch for e in range(epochs) for i in range(per_epoch)] + [float(x) for x in extra]
    return {"base_lr": base_lr, "T_0": T_0, "T_mult": T_mult, "eta_min": eta_min, "epochs": es}


def oracle(inputs):
    """PyTorch's own CosineAnnealingWarmRestarts, stepped with an explicit (fractional) epoch."""
    import warnings

    import torch

    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=inputs["base_lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=inputs["T_0"], T_mult=inputs["T_mult"],
                                                                 eta_min=inputs["eta_min"])
    lrs, t_cur, t_i = [], [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for e in inputs["epochs"]:
            sched.step(e)
            lrs.append(opt.param_groups[0]["lr"])
            t_cur.append(float(sched.T_cur))
            t_i.append(int(sched.T_i))
    return {"lr": torch.tensor(lrs, dtype=torch.float64), "T_cur": torch.tensor(t_cur, dtype=torch.float64),
            "T_i": t_i}
