import torch


def run(sol, inputs):
    base, t0, tm, mn = inputs["base_lr"], inputs["T_0"], inputs["T_mult"], inputs["eta_min"]
    lrs, t_cur, t_i = [], [], []
    for e in inputs["epochs"]:
        lrs.append(float(sol.lr_at(e, base, t0, tm, mn)))
        c, i = sol.cycle(e, t0, tm)
        t_cur.append(float(c))
        t_i.append(int(i))
    return {"lr": torch.tensor(lrs, dtype=torch.float64), "T_cur": torch.tensor(t_cur, dtype=torch.float64),
            "T_i": t_i}
