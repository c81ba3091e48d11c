import torch


def run(sol, inputs):
    x, y = inputs["x"], inputs["y"]
    w = inputs["w"].clone().requires_grad_(True)
    b = inputs["b"].clone().requires_grad_(True)
    opt = torch.optim.SGD([w, b], lr=inputs["lr"])
    scaler = sol.GradScaler(**inputs["hp"])
    scaled_losses, grads, ws, bs, scales, skipped = [], [], [], [], [], []
    for event in inputs["script"]:  # "ok", "inf", "nan", or "inf-b" (only b's gradient overflows)
        opt.zero_grad()
        loss = (x @ w + b.sum() - y).pow(2).mean()
        if event in ("inf", "nan"):
            loss = loss + w.sum() * float(event)
        elif event == "inf-b":
            loss = loss + b[-1] * float("inf")
        scaled = scaler.scale(loss)
        scaled_losses.append(torch.nan_to_num(scaled.detach().clone(), nan=0.0, posinf=0.0, neginf=0.0))
        scaled.backward()
        if inputs["explicit_unscale"]:
            scaler.unscale_(opt)  # e.g. to clip gradients at their true scale
            g = torch.cat([w.grad, b.grad])
            grads.append(torch.where(torch.isfinite(g), g, torch.zeros_like(g)))
        before = torch.cat([w.detach(), b.detach()]).clone()
        scaler.step(opt)
        scaler.update()
        skipped.append(bool(torch.equal(before, torch.cat([w.detach(), b.detach()]))))
        scales.append(float(scaler.get_scale()))
        ws.append(w.detach().clone())
        bs.append(b.detach().clone())
    out = {"skipped": skipped, "scale": scales, "scaled_loss": torch.stack(scaled_losses),
           "w": torch.stack(ws), "b": torch.stack(bs)}
    if grads:
        out["unscaled_grads"] = torch.stack(grads)
    return out
