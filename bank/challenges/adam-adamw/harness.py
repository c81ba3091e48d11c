import torch


def run(sol, inputs):
    x, y = inputs["x"], inputs["y"]
    w = inputs["w"].clone().requires_grad_(True)
    b = inputs["b"].clone().requires_grad_(True)
    frozen = inputs["frozen"].clone().requires_grad_(True)  # never gets a gradient: left untouched
    hp = dict(inputs["hp"])
    if "betas" in hp:
        hp["betas"] = tuple(hp["betas"])
    opt = getattr(sol, inputs["optimizer"])([w, b, frozen], **hp)
    losses, ws, bs = [], [], []
    for _ in range(inputs["steps"]):
        for p in (w, b, frozen):
            p.grad = None
        loss = (torch.relu(x @ w.T + b) - y).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.detach().clone())
        ws.append(w.detach().clone())
        bs.append(b.detach().clone())
    return {"loss": torch.stack(losses), "w": torch.stack(ws), "b": torch.stack(bs),
            "frozen": frozen.detach().clone()}
