import torch
from torch import nn


def build_model(seed, d_in, hidden, d_out, batchnorm):
    torch.manual_seed(seed)
    layers = [nn.Linear(d_in, hidden)] + ([nn.BatchNorm1d(hidden)] if batchnorm else []) + [nn.ReLU(),
                                                                                           nn.Linear(hidden, d_out)]
    return nn.Sequential(*layers).double()


def run(sol, inputs):
    x, y = inputs["x"], inputs["y"]
    model = build_model(inputs["model_seed"], x.shape[-1], inputs["hidden"], y.shape[-1], inputs["batchnorm"])
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=inputs["lr"])
    ema = sol.ModelEMA(model, decay=inputs["decay"])
    for step in range(x.shape[0]):
        loss = ((model(x[step]) - y[step]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
    out = {f"ema.{k}": (v.detach().clone() if v.is_floating_point() else v.tolist())
           for k, v in ema.module.state_dict().items()}
    with torch.no_grad():
        out["ema_output"] = ema.module(inputs["x_test"]).detach().clone()
    return out
